import type { Authorizer } from '../auth/authorizer.js';
import type { Config } from '../config/types.js';
import type { DeviceInfo } from '../device.js';
import { JSON_CONTENT_TYPE, mergeHeaders } from '../http/headers.js';
import type { Clock } from '../ports/clock.js';
import type { Transport } from '../ports/transport.js';
import type { LogQueryInput } from '../store/query.js';
import { logDeviceId } from './log-device-id.js';
import type { SdkLogger } from './logger.js';
import { SDK_VERSION, uploadLogFile } from './upload-log.js';

/** A server asking for the log again within this window gets the upload already made or queued. */
export const LOG_UPLOAD_COALESCE_MS = 60_000;
/** Distinct URLs waiting for a remote log upload at most; more are refused (a server gone wild). */
export const MAX_QUEUED_LOG_UPLOADS = 8;

export interface LogUploaderDeps {
  transport: Transport;
  logger: SdkLogger;
  authorizer: Authorizer;
  clock: Clock;
  config: () => Config;
  device: DeviceInfo;
}

function originOf(url: string | null): string | null {
  if (!url) return null;
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/**
 * Log upload: POSTs the SDK log, gzipped, as multipart form data with the device's description.
 * One upload at a time, on its own chain, so it never holds up location uploads. Remote requests
 * are coalesced (one per URL per LOG_UPLOAD_COALESCE_MS). The integrator's http.headers and the
 * Authorization header go only to the origin of http.url: a server cannot have them sent elsewhere.
 */
export class LogUploader {
  private tail: Promise<unknown> = Promise.resolve();
  private running = 0;
  private readonly queued = new Set<string>();
  private readonly lastStarted = new Map<string, number>();

  constructor(private readonly deps: LogUploaderDeps) {}

  /** The application's request: queued behind any running log upload, resolved with its status. */
  upload(url: string, query?: LogQueryInput): Promise<{ status: number }> {
    return this.enqueue(() => this.send(url, query));
  }

  /** A server's request (remote uploadLog): returns at once; the outcome goes to the log. */
  request(url: string): 'queued' | 'coalesced' | 'refused' {
    const now = this.deps.clock.now();
    const last = this.lastStarted.get(url);
    if (this.queued.has(url) || (last !== undefined && now - last < LOG_UPLOAD_COALESCE_MS)) {
      this.deps.logger.info('Log', `log upload to ${hostOf(url)} coalesced with one made or queued within a minute`);
      return 'coalesced';
    }
    if (this.queued.size >= MAX_QUEUED_LOG_UPLOADS) {
      this.deps.logger.warn('Log', `log upload to ${hostOf(url)} refused: ${MAX_QUEUED_LOG_UPLOADS} already queued`);
      return 'refused';
    }
    this.queued.add(url);
    void this.enqueue(() => {
      this.queued.delete(url);
      return this.send(url);
    }).catch((error: unknown) =>
      this.deps.logger.warn('Log', `remote log upload failed: ${(error as Error)?.message ?? String(error)}`),
    );
    return 'queued';
  }

  /** Resolves when no log upload is running or queued. */
  async idle(): Promise<void> {
    while (this.running > 0) await this.tail;
  }

  private enqueue<T>(job: () => Promise<T>): Promise<T> {
    this.running++;
    const run = this.tail.then(job);
    this.tail = run.catch(() => undefined).finally(() => this.running--);
    return run;
  }

  private async send(url: string, query?: LogQueryInput): Promise<{ status: number }> {
    const now = this.deps.clock.now();
    for (const [known, at] of this.lastStarted) if (now - at >= LOG_UPLOAD_COALESCE_MS) this.lastStarted.delete(known);
    this.lastStarted.set(url, now);
    const { http } = this.deps.config();
    const { device } = this.deps;
    const sameOrigin = originOf(url) !== null && originOf(url) === originOf(http.url);
    const headers = sameOrigin ? mergeHeaders(http.headers, await this.deps.authorizer.headers()) : {};
    delete headers[Object.keys(JSON_CONTENT_TYPE)[0]!];
    if (!sameOrigin)
      this.deps.logger.info('Log', `log upload to ${hostOf(url)}: not http.url's origin, sent without credentials`);
    const response = await uploadLogFile(this.deps.transport, {
      url,
      logText: await this.deps.logger.text(query),
      fields: {
        device_id: logDeviceId(http, device.uuid),
        model: device.model,
        manufacturer: device.manufacturer,
        platform: device.platform,
        version: device.version,
        sdk_version: SDK_VERSION,
      },
      headers,
      timeoutMs: http.timeout,
    });
    this.deps.logger.info('Log', `log uploaded to ${hostOf(url)} (${response.status})`);
    return { status: response.status };
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'an invalid URL';
  }
}
