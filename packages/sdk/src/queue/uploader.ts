import type { Authorizer } from '../auth/authorizer.js';
import type { Config } from '../config/types.js';
import { WaypostError, isWaypostError } from '../errors.js';
import type { HttpEvent } from '../events/types.js';
import { JSON_CONTENT_TYPE, mergeHeaders } from '../http/headers.js';
import { buildPayload } from '../http/payload.js';
import { DROPPED_HEADER } from '../ledger/dropped-header.js';
import type { DropReport, Tombstones } from '../ledger/tombstones.js';
import type { SdkLogger } from '../log/logger.js';
import type { Clock } from '../ports/clock.js';
import type { KeyValueStore, LocationQueueStore, StoredRecord } from '../ports/store.js';
import type { HttpResponse, Transport } from '../ports/transport.js';
import { decideAfterOutcome, MAX_REFUSALS_PER_FLUSH, type AfterOutcomeAction } from './after-outcome.js';
import { planBatch, RefusedRecords } from './refused-records.js';
import { classifyFailure, classifyResponse, type UploadOutcome } from './outcome.js';
import { describeBatch, loggableUrl } from './describe.js';
import { UploadExchange } from './upload-exchange.js';

export interface UploaderDeps {
  queue: LocationQueueStore;
  transport: Transport;
  logger: SdkLogger;
  authorizer: Authorizer;
  clock: Clock;
  config: () => Config;
  onHttp: (event: HttpEvent) => void;
  /** Called with every response once its records are deleted or unlocked (remote commands). */
  onResponse: (response: HttpResponse) => Promise<void>;
  /** Retention, run before each flush so expired records are never uploaded. */
  beforeFlush: () => Promise<void>;
  /** A server asked (Retry-After) for no automatic upload before `until`. */
  onDefer: (until: number, status: number) => void;
  /** Dropped sequence numbers, reported with uploads to a server that reads them (the ledger). */
  tombstones: Tombstones;
  kv: KeyValueStore;
}

/** Drains report what they delivered; sync() keeps the records, automatic drains only count. */
export interface DrainResult {
  delivered: number;
  records: StoredRecord[];
  failed: boolean;
}

/** What one batch's request came to, as far as the flush loop is concerned. */
interface BatchResult {
  delivered: boolean;
  actions: AfterOutcomeAction[];
  status: number;
  /** The server refused the records (not the request as a whole). */
  refused: boolean;
}

/**
 * The HTTP service of spec section 3: takes records in order, locks them, sends them, and does
 * what decideAfterOutcome says (delete on 2xx, unlock otherwise, a smaller batch after a 413).
 * Only one drain runs at a time: drains are chained.
 */
/** The log code of an upload attempt that broke before any answer (a store, template or adapter failure). */
export const UPLOAD_ERROR = 'UPLOAD_ERROR';
/** The log code of a record a server refused on its own (held back, retried alone with a backoff). */
export const RECORD_REFUSED = 'RECORD_REFUSED';

export class Uploader {
  private tail: Promise<unknown> = Promise.resolve();
  private readonly exchange: UploadExchange;
  /** Records a server refused on their own: sent alone, with a backoff (issue 19). */
  private readonly refused: RefusedRecords;
  private pending = 0;
  private failures = 0;

  constructor(private readonly deps: UploaderDeps) {
    this.exchange = new UploadExchange(deps.transport, deps.logger, deps.tombstones);
    this.refused = new RefusedRecords(deps.kv, deps.clock);
  }

  /** How many drains have ended on a failed request so far (the scheduler compares snapshots). */
  get failedDrains(): number {
    return this.failures;
  }

  get busy(): boolean {
    return this.pending > 0;
  }

  /** Runs a drain after any running one; `collect` keeps the delivered records for the caller. */
  drain(collect: boolean): Promise<DrainResult> {
    this.pending++;
    const run = this.tail.then(() => this.run(collect));
    this.tail = run.catch(() => undefined).finally(() => this.pending--);
    return run;
  }

  /** Waits until no drain is running. */
  async idle(): Promise<void> {
    while (this.pending > 0) await this.tail;
  }

  private async run(collect: boolean): Promise<DrainResult> {
    const result: DrainResult = { delivered: 0, records: [], failed: false };
    if (!this.deps.config().http.url) {
      throw new WaypostError(
        'NO_URL',
        'Nothing can be uploaded: http.url is not set. Configure it with setConfig({ http: { url } }).',
      );
    }
    // The batch in hand, for the report of an attempt that fails before any answer.
    const inHand: { uuids: string[] } = { uuids: [] };
    try {
      await this.flush(result, collect, inHand);
    } catch (error) {
      // Anything that breaks an attempt (a store, a template, an adapter, a bug) ends it as a
      // failed request would: an onHttp failure with status 0, a log line with a stable code, and
      // the next trigger tries again. Nothing is ever swallowed into a silent stall. sync()
      // rejects with the error as well: its caller asked.
      const message = (error as Error)?.message ?? String(error);
      this.deps.logger.error('HTTP', `${UPLOAD_ERROR}: upload attempt failed before an answer: ${message}`);
      this.failures++;
      result.failed = true;
      this.deps.onHttp({
        success: false,
        isSuccess: false,
        status: 0,
        responseText: '',
        uuids: inHand.uuids,
        error: `${UPLOAD_ERROR}: ${message}`,
      });
      if (collect) throw error;
    }
    return result;
  }

  private async flush(result: DrainResult, collect: boolean, inHand: { uuids: string[] }): Promise<void> {
    await this.deps.beforeFlush();
    const refused = await this.refused.current();
    // The batch size a 413 taught this flush; kept until the flush ends.
    let learnedLimit = Number.MAX_SAFE_INTEGER;
    let refusalsLeft = MAX_REFUSALS_PER_FLUSH;
    // Locked records this flush has not settled yet: the requests still to send (halves of a
    // refused batch among them), and refused records held back until the flush ends.
    let work: StoredRecord[][] = [];
    const held: StoredRecord[] = [];
    try {
      for (;;) {
        // Read per batch: a setConfig() from a remote command applies to the next request.
        const { http, persistence } = this.deps.config();
        if (!http.url) break;
        const configured = http.batchSync
          ? http.maxBatchSize === -1
            ? Number.MAX_SAFE_INTEGER
            : http.maxBatchSize
          : 1;
        const batch = await this.deps.queue.lockNext(
          Math.min(configured, learnedLimit),
          persistence.locationsOrderDirection,
        );
        if (batch.length === 0) break;
        this.deps.logger.info('HTTP', `Locked ${describeBatch(batch)}`);
        const plan = planBatch(batch, refused, this.deps.clock.now(), collect);
        held.push(...plan.held);
        for (const record of plan.held) {
          const at = new Date(refused.get(record.id)!.nextAt).toISOString();
          this.deps.logger.info('HTTP', `${RECORD_REFUSED}: ${record.uuid} held back (refused alone) until ${at}`);
        }
        work = plan.sends;
        while (work.length > 0) {
          const part = work.shift()!;
          inHand.uuids = part.map((r) => r.uuid);
          const sent = await this.send(part, this.deps.config(), refusalsLeft);
          const did = (type: AfterOutcomeAction['type']) => sent.actions.some((action) => action.type === type);
          if (sent.refused) refusalsLeft--;
          if (sent.delivered) {
            result.delivered += part.length;
            if (collect) result.records.push(...part);
            if (refused.size > 0) await this.refused.settled(part.map((r) => r.id));
          } else if (did('bisect')) {
            const half = Math.ceil(part.length / 2);
            work.unshift(part.slice(0, half), part.slice(half));
            this.deps.logger.info('HTTP', `${sent.status}: the batch is sent again as two halves`);
          } else if (did('hold')) {
            const entry = await this.refused.refuse(part[0]!.id);
            held.push(part[0]!);
            this.deps.logger.warn(
              'HTTP',
              `${RECORD_REFUSED}: ${sent.status} for record ${part[0]!.uuid} alone; it stays queued, retried alone ` +
                `after ${new Date(entry.nextAt).toISOString()} (attempt ${entry.attempts}), the rest goes on`,
            );
          } else {
            // Unlocked (a failure, a 413): what follows it waits too, so the queue's order holds.
            await this.unlockAll(work.splice(0));
          }
          for (const action of sent.actions) {
            if (action.type === 'limitBatch') learnedLimit = action.size;
          }
          if (did('endFlush')) {
            result.failed = true;
            this.failures++;
            return;
          }
        }
      }
    } finally {
      await this.unlockAll([...work.splice(0), held]);
    }
  }

  private async unlockAll(parts: readonly StoredRecord[][]): Promise<void> {
    const ids = parts.flat().map((r) => r.id);
    if (ids.length > 0) await this.deps.queue.unlock(ids);
  }

  /** A reply that cannot be read never fails an upload whose outcome is already settled. */
  private async runCommands(response: HttpResponse): Promise<void> {
    try {
      await this.deps.onResponse(response);
    } catch (error) {
      this.deps.logger.error('Remote', `response not handled: ${(error as Error)?.message ?? String(error)}`);
    }
  }

  /** One batch: sends it (again after a successful authorization refresh) and carries out the decision. */
  private async send(batch: StoredRecord[], config: Config, refusalsLeft: number): Promise<BatchResult> {
    const { http } = config;
    const ids = batch.map((r) => r.id);
    const uuids = batch.map((r) => r.uuid);
    let response: HttpResponse | undefined;
    let failure: string | undefined;
    let actions: AfterOutcomeAction[];
    let outcome: UploadOutcome;
    let drops: DropReport | null;
    try {
      drops = await this.deps.tombstones.take(http.url!);
      const payload = buildPayload(
        batch.map((r) => r.json),
        http,
      );
      if (payload.paramsDropped) {
        this.deps.logger.warn(
          'HTTP',
          'http.params dropped: the body is a bare array (rootProperty ".") with no place for them',
        );
      }
      for (let attempt = 0; ; attempt++) {
        const headers = mergeHeaders(
          http.headers,
          JSON_CONTENT_TYPE,
          await this.deps.authorizer.headers(),
          drops ? { [DROPPED_HEADER]: drops.value } : {},
        );
        this.deps.logger.info('HTTP', `HTTP ${http.method} ${loggableUrl(http.url!)} ${describeBatch(batch)}`);
        try {
          response = await this.exchange.send(http, headers, payload.body);
          outcome = classifyResponse(response);
        } catch (error) {
          if (!isWaypostError(error, 'TIMEOUT') && !isWaypostError(error, 'NETWORK')) throw error;
          response = undefined;
          failure = error.message;
          outcome = classifyFailure(error.code as 'TIMEOUT' | 'NETWORK');
          this.deps.logger.warn('HTTP', `HTTP ${http.method} failed: ${error.message}`);
        }
        this.deps.logger.info('HTTP', `Response ${outcome.status}`);
        actions = decideAfterOutcome(outcome, batch.length, attempt, this.deps.clock.now(), refusalsLeft);
        if (actions[0]?.type !== 'refreshAndResend') break;
        if (!(await this.deps.authorizer.refreshAfterUnauthorized())) {
          actions = decideAfterOutcome(outcome, batch.length, attempt + 1, this.deps.clock.now(), refusalsLeft);
          break;
        }
        // onHttp fires once per request: the 401 is settled here, the retry reports below.
        this.deps.onHttp({ success: false, isSuccess: false, status: 401, responseText: response?.text ?? '', uuids });
      }
    } catch (error) {
      // Anything unexpected (a store or adapter bug): never leave the records locked.
      await this.deps.queue.unlock(ids);
      this.deps.logger.error('HTTP', `UNLOCK ${describeBatch(batch)} after an error: ${(error as Error).message}`);
      throw error;
    }

    const delivered = actions.some((action) => action.type === 'delete');
    for (const action of actions) {
      if (action.type === 'delete') {
        this.deps.authorizer.uploadAccepted();
        await this.deps.queue.remove(ids);
        if (drops) await this.deps.tombstones.settle(drops);
        this.deps.logger.info('HTTP', `DESTROY ${describeBatch(batch)}`);
      } else if (action.type === 'unlock') {
        await this.deps.queue.unlock(ids);
        this.deps.logger.info('HTTP', `UNLOCK ${describeBatch(batch)}`);
      } else if (action.type === 'limitBatch') {
        this.deps.logger.info('HTTP', `${outcome.status}: batches of ${action.size} for the rest of this flush`);
      } else if (action.type === 'deferAutomatic') {
        this.deps.onDefer(action.until, outcome.status);
      }
    }
    this.deps.onHttp({
      success: delivered,
      isSuccess: delivered,
      status: outcome.status,
      responseText: response?.text ?? '',
      uuids,
      ...(failure === undefined ? {} : { error: failure }),
    });
    if (response) await this.runCommands(response);
    return { delivered, actions, status: outcome.status, refused: outcome.kind === 'refused' };
  }
}
