import type { Authorizer } from '../auth/authorizer.js';
import type { Config } from '../config/types.js';
import { WaypostError, isWaypostError } from '../errors.js';
import type { HttpEvent } from '../events/types.js';
import { JSON_CONTENT_TYPE, mergeHeaders } from '../http/headers.js';
import { buildPayload } from '../http/payload.js';
import type { SdkLogger } from '../log/logger.js';
import type { LocationQueueStore, StoredRecord } from '../ports/store.js';
import type { HttpResponse, Transport } from '../ports/transport.js';
import { classifyFailure, classifyResponse, type UploadOutcome } from './outcome.js';

export interface UploaderDeps {
  queue: LocationQueueStore;
  transport: Transport;
  logger: SdkLogger;
  authorizer: Authorizer;
  config: () => Config;
  onHttp: (event: HttpEvent) => void;
  /** Called with every response once its records are deleted or unlocked (remote commands). */
  onResponse: (response: HttpResponse) => Promise<void>;
  /** Retention, run before each flush so expired records are never uploaded. */
  beforeFlush: () => Promise<void>;
}

/** Drains report what they delivered; sync() keeps the records, automatic drains only count. */
export interface DrainResult {
  delivered: number;
  records: StoredRecord[];
  failed: boolean;
}

/** Names a few uuids of a batch so one record's journey can be followed in the log. */
function describe(batch: readonly StoredRecord[]): string {
  const uuids = batch.length <= 20 ? batch.map((r) => r.uuid).join(', ') : `${batch[0]!.uuid} .. ${batch.at(-1)!.uuid}`;
  return `${batch.length} record${batch.length === 1 ? '' : 's'} [${uuids}]`;
}

let lastUrl = '';
let lastLoggable = '';

/**
 * The URL without its query string: a query may carry an API key, and the log never shows secrets.
 * Remembers the last one: the URL rarely changes and parsing it per request showed in profiles.
 */
function loggableUrl(url: string): string {
  if (url !== lastUrl) {
    const parsed = new URL(url);
    lastLoggable = `${parsed.origin}${parsed.pathname}`;
    lastUrl = url;
  }
  return lastLoggable;
}

/**
 * The HTTP service of spec section 3: takes records in order, locks them, sends them, deletes them
 * on 2xx and unlocks them on anything else, which also ends the flush (a failing server is not
 * hammered with the rest of the queue). Only one drain runs at a time: drains are chained.
 */
export class Uploader {
  private tail: Promise<unknown> = Promise.resolve();
  private pending = 0;

  constructor(private readonly deps: UploaderDeps) {}

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
    await this.deps.beforeFlush();
    for (;;) {
      // Read per batch: a setConfig() from a remote command applies to the next request.
      const { http, persistence } = this.deps.config();
      if (!http.url) break;
      const limit = http.batchSync ? (http.maxBatchSize === -1 ? Number.MAX_SAFE_INTEGER : http.maxBatchSize) : 1;
      const batch = await this.deps.queue.lockNext(limit, persistence.locationsOrderDirection);
      if (batch.length === 0) break;
      this.deps.logger.info('HTTP', `Locked ${describe(batch)}`);
      const ok = await this.send(batch, this.deps.config());
      if (!ok) {
        result.failed = true;
        break;
      }
      result.delivered += batch.length;
      if (collect) result.records.push(...batch);
    }
    return result;
  }

  /** One request for one batch, with one retry after a successful authorization refresh. */
  private async send(batch: StoredRecord[], config: Config): Promise<boolean> {
    const { http } = config;
    const ids = batch.map((r) => r.id);
    let response: HttpResponse | undefined;
    let outcome: UploadOutcome;
    try {
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
      let attempt = 0;
      for (;;) {
        const headers = mergeHeaders(http.headers, JSON_CONTENT_TYPE, await this.deps.authorizer.headers());
        this.deps.logger.info('HTTP', `HTTP ${http.method} ${loggableUrl(http.url!)} ${describe(batch)}`);
        try {
          response = await this.deps.transport.send({
            url: http.url!,
            method: http.method,
            headers,
            body: payload.body,
            timeoutMs: http.timeout,
          });
          outcome = classifyResponse(response);
        } catch (error) {
          if (!isWaypostError(error, 'TIMEOUT') && !isWaypostError(error, 'NETWORK')) throw error;
          response = undefined;
          outcome = classifyFailure(error.code as 'TIMEOUT' | 'NETWORK');
          this.deps.logger.warn('HTTP', `HTTP ${http.method} failed: ${error.message}`);
        }
        this.deps.logger.info('HTTP', `Response ${outcome.status}`);
        if (outcome.kind !== 'unauthorized' || attempt > 0) break;
        attempt++;
        if (!(await this.deps.authorizer.refreshAfterUnauthorized())) break;
        // onHttp fires once per request: the 401 is settled here, the retry reports below.
        this.deps.onHttp({ success: false, isSuccess: false, status: 401, responseText: response?.text ?? '' });
      }
    } catch (error) {
      // Anything unexpected (a store or adapter bug): never leave the records locked.
      await this.deps.queue.unlock(ids);
      this.deps.logger.error('HTTP', `UNLOCK ${describe(batch)} after an error: ${(error as Error).message}`);
      throw error;
    }

    const success = outcome.kind === 'delivered';
    if (success) {
      this.deps.authorizer.uploadAccepted();
      await this.deps.queue.remove(ids);
      this.deps.logger.info('HTTP', `DESTROY ${describe(batch)}`);
    } else {
      await this.deps.queue.unlock(ids);
      this.deps.logger.info('HTTP', `UNLOCK ${describe(batch)}`);
    }
    this.deps.onHttp({ success, isSuccess: success, status: outcome.status, responseText: response?.text ?? '' });
    if (response) await this.deps.onResponse(response);
    return success;
  }
}
