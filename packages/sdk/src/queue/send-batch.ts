import type { Config } from '../config/types.js';
import { isWaypostError } from '../errors.js';
import { JSON_CONTENT_TYPE, mergeHeaders } from '../http/headers.js';
import { buildPayload } from '../http/payload.js';
import { DROPPED_HEADER } from '../ledger/dropped-header.js';
import type { DropReport, Tombstones } from '../ledger/tombstones.js';
import type { StoredRecord } from '../ports/store.js';
import type { HttpResponse } from '../ports/transport.js';
import { decideAfterOutcome, type AfterOutcomeAction } from './after-outcome.js';
import { describeBatch, loggableUrl } from './describe.js';
import { classifyFailure, classifyResponse, type UploadOutcome } from './outcome.js';
import { UploadExchange } from './upload-exchange.js';
import type { DeviceHealth } from '../health/device-health.js';
import { HEALTH_ACCEPTED_HEADER, HEALTH_HEADER } from '../health/health-header.js';
import type { ReceiptKeeper } from '../receipts/receipt-keeper.js';
import { RECEIPTS_HEADER } from '../receipts/receipt.js';
import { RECEIPTED_HEADER } from '../receipts/receipted-header.js';
import type { Authorizer } from '../auth/authorizer.js';
import type { HttpEvent } from '../events/types.js';
import type { SdkLogger } from '../log/logger.js';
import type { Clock } from '../ports/clock.js';
import type { LocationQueueStore } from '../ports/store.js';
import type { Transport } from '../ports/transport.js';

/** What one batch's request came to, as far as the flush loop is concerned. */
export interface BatchResult {
  delivered: boolean;
  actions: AfterOutcomeAction[];
  status: number;
  /** The server refused the records (not the request as a whole). */
  refused: boolean;
}

export interface SenderDeps {
  queue: LocationQueueStore;
  transport: Transport;
  logger: SdkLogger;
  authorizer: Authorizer;
  clock: Clock;
  onHttp: (event: HttpEvent) => void;
  /** Called with every response once its records are deleted or unlocked (remote commands). */
  onResponse: (response: HttpResponse) => Promise<void>;
  /** A server asked (Retry-After) for no automatic upload before `until`. */
  onDefer: (until: number, status: number) => void;
  /** Dropped sequence numbers, reported with uploads to a server that reads them (the ledger). */
  tombstones: Tombstones;
  /** The device health report, sent with uploads to a server that reads it (issue 31). */
  health?: DeviceHealth;
  /** Delivery receipts, asked of a server that offers them; receipted records are archived (issue 46). */
  receipts?: ReceiptKeeper;
}

/**
 * One request of a flush: builds the body, sends it (again after a successful authorization
 * refresh), and carries out what decideAfterOutcome decided for these records (delete, unlock,
 * defer), reporting onHttp once per request. The flush loop (uploader.ts) decides what to send next.
 */
export class BatchSender {
  private readonly exchange: UploadExchange;

  constructor(private readonly deps: SenderDeps) {
    this.exchange = new UploadExchange(deps.transport, deps.logger, deps.tombstones);
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
  async send(batch: StoredRecord[], config: Config, refusalsLeft: number): Promise<BatchResult> {
    const { http } = config;
    const ids = batch.map((r) => r.id);
    const uuids = batch.map((r) => r.uuid);
    let response: HttpResponse | undefined;
    let failure: string | undefined;
    let actions: AfterOutcomeAction[];
    let outcome: UploadOutcome;
    let drops: DropReport | null;
    let claim: string | null;
    // Read once: a server's offer heard during this request applies from the next one.
    let asked: boolean;
    try {
      // Answered at once (no microtask) once the offers are known: the usual upload awaits nothing here.
      const asking = this.deps.receipts?.asks(http.url!) ?? false;
      asked = typeof asking === 'boolean' ? asking : await asking;
      drops = await this.deps.tombstones.take(http.url!);
      const pendingHealth = this.deps.health?.header(http.url!) ?? null;
      const health = pendingHealth === null ? null : await pendingHealth;
      claim = asked ? await this.deps.receipts!.claim(http.url!) : null;
      // A presence report (no records) is an empty batch whatever batchSync says.
      const payload = buildPayload(
        batch.map((r) => r.json),
        batch.length === 0 ? { ...http, batchSync: true } : http,
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
          health === null ? {} : { [HEALTH_HEADER]: health },
          asked ? { [RECEIPTS_HEADER]: '1' } : {},
          claim === null ? {} : { [RECEIPTED_HEADER]: claim },
        );
        this.deps.logger.info('HTTP', `HTTP ${http.method} ${loggableUrl(http.url!)} ${describeBatch(batch)}`);
        try {
          response = await this.exchange.send(http, headers, payload.body, payload.canonical);
          // Awaited only when an offer changed (a kv write).
          const healthHeard = this.deps.health?.heard(
            http.url!,
            response.status,
            response.headers?.[HEALTH_ACCEPTED_HEADER],
          );
          if (healthHeard) await healthHeard;
          const receiptsHeard = this.deps.receipts?.heard(http.url!, response.status, response.headers);
          if (receiptsHeard) await receiptsHeard;
          outcome = classifyResponse(response);
        } catch (error) {
          if (!isWaypostError(error, 'TIMEOUT') && !isWaypostError(error, 'NETWORK')) throw error;
          response = undefined;
          failure = error.message;
          outcome = classifyFailure(error.code as 'TIMEOUT' | 'NETWORK');
          this.deps.logger.warn('HTTP', `HTTP ${http.method} failed: ${error.message}`);
        }
        this.deps.logger.info('HTTP', `Response ${outcome.status}`);
        this.deps.health?.outcome(outcome);
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
      if (ids.length > 0) await this.deps.queue.unlock(ids);
      this.deps.logger.error('HTTP', `UNLOCK ${describeBatch(batch)} after an error: ${(error as Error).message}`);
      throw error;
    }

    const delivered = actions.some((action) => action.type === 'delete');
    for (const action of actions) {
      if (action.type === 'delete') {
        this.deps.authorizer.uploadAccepted();
        // Receipted records go to the archive (issue 46); the rest are deleted (spec 3).
        // Only a request that asked for a receipt is checked for one (the first upload learns the offer).
        const gone = asked ? await this.deps.receipts!.delivered(http.url!, batch, response?.headers, claim) : ids;
        if (gone.length > 0) await this.deps.queue.remove(gone);
        if (drops) await this.deps.tombstones.settle(drops);
        this.deps.logger.info('HTTP', `DESTROY ${describeBatch(batch)}`);
      } else if (action.type === 'unlock') {
        if (ids.length > 0) await this.deps.queue.unlock(ids);
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
