import type { Config } from '../config/types.js';
import { WaypostError } from '../errors.js';
import type { KeyValueStore, StoredRecord } from '../ports/store.js';
import { MAX_REFUSALS_PER_FLUSH, type AfterOutcomeAction } from './after-outcome.js';
import { planBatch, RefusedRecords } from './refused-records.js';
import { describeBatch } from './describe.js';
import { BatchSender, type SenderDeps } from './send-batch.js';
import { resendReceipted } from './resend-receipted.js';

export interface UploaderDeps extends SenderDeps {
  config: () => Config;
  /** Retention, run before each flush so expired records are never uploaded. */
  beforeFlush: () => Promise<void>;
  kv: KeyValueStore;
}

/** Drains report what they delivered; sync() keeps the records, automatic drains only count. */
export interface DrainResult {
  delivered: number;
  records: StoredRecord[];
  failed: boolean;
}

/** The log code of an upload attempt that broke before any answer (a store, template or adapter failure). */
export const UPLOAD_ERROR = 'UPLOAD_ERROR';
/** The log code of a record a server refused on its own (held back, retried alone with a backoff). */
export const RECORD_REFUSED = 'RECORD_REFUSED';

/**
 * The HTTP service of spec section 3: takes records in order, locks them, sends them, and does
 * what decideAfterOutcome says (delete on 2xx, unlock otherwise, a smaller batch after a 413).
 * Only one drain runs at a time: drains are chained.
 */
export class Uploader {
  private tail: Promise<unknown> = Promise.resolve();
  private readonly sender: BatchSender;
  /** Records a server refused on their own: sent alone, with a backoff (issue 19). */
  private readonly refused: RefusedRecords;
  private pending = 0;
  private failures = 0;

  constructor(private readonly deps: UploaderDeps) {
    this.sender = new BatchSender(deps);
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

  /**
   * A presence report (issue 31): one request with no records, after any running drain, so a
   * server that reads health reports hears from a device that has nothing to upload. Its outcome
   * is handled as any upload's (a 401 refresh, a Retry-After, onHttp); nothing is thrown.
   */
  presence(): Promise<void> {
    this.pending++;
    const run = this.tail.then(async () => {
      try {
        await this.sender.send([], this.deps.config(), 0);
      } catch (error) {
        const message = (error as Error)?.message ?? String(error);
        this.deps.logger.error('HTTP', `${UPLOAD_ERROR}: presence report failed before an answer: ${message}`);
      }
    });
    this.tail = run.finally(() => this.pending--);
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
        // An automatic drain that autoSync was turned off under ends with the request it was on:
        // what is queued from then on is sync()'s, which resolves with it (a drain looping on
        // took what a tab's forwarded sync() had just recorded, and sync() resolved with none).
        if (!collect && !http.autoSync) break;
        const configured = http.batchSync
          ? http.maxBatchSize === -1
            ? Number.MAX_SAFE_INTEGER
            : http.maxBatchSize
          : 1;
        const batch = await this.deps.queue.lockNext(
          Math.min(configured, learnedLimit),
          persistence.locationsOrderDirection,
        );
        if (batch.length === 0) {
          // The queue is drained: what a server asked for again follows (issue 46).
          if (
            this.deps.receipts &&
            !(await resendReceipted(this.deps.receipts, this.sender, this.deps.config(), this.deps.logger))
          ) {
            result.failed = true;
            this.failures++;
          }
          break;
        }
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
          const sent = await this.sender.send(part, this.deps.config(), refusalsLeft);
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
}
