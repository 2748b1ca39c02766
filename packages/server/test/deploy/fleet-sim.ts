import { record } from '../helpers/client.js';

/**
 * A simulated fleet uploading through the load balancer as the SDK does: each device sends its
 * records in batches, in order, each record with its sequence number, and resends a batch until it
 * is acknowledged (any failure, any status but 200, no answer within the timeout). What happened to
 * each attempt is kept, with the host HAProxy names in X-Waypost-Host, for failure messages.
 */
export const BATCH = 4;
/** A record is inside its device's depot in runs of 3: crossings every few records. */
const RUN = 3;
const ATTEMPT_TIMEOUT_MS = 8_000;
const PACE_MS = 200;
/** A batch not acknowledged after this long fails the test (every fault heals well before). */
const GIVE_UP_MS = 90_000;

export interface Attempt {
  device: string;
  first: number;
  last: number;
  host: string;
  outcome: string;
}

/** Device k's depot: a circle of 150 m, far from every other device's. */
export const depotOf = (k: number) => ({
  identifier: `depot-${k}`,
  latitude: 48,
  longitude: 11 + k * 0.05,
  radius: 150,
});

/** Whether record `sequence` of a device lies inside its depot. */
export const insideAt = (sequence: number): boolean => Math.floor((sequence - 1) / RUN) % 2 === 0;

export class Fleet {
  /** Per device, the highest sequence number acknowledged (batches go in order). */
  readonly acked = new Map<string, number>();
  readonly attempts: Attempt[] = [];
  private batches = 0;
  /** When each attempt under way was sent. */
  private readonly sending = new Set<{ since: number }>();
  private waiters: { count: number; resolve: () => void }[] = [];
  private running = false;
  private loops: Promise<void>[] = [];
  private readonly t0 = Date.now() - 3_600_000;

  constructor(
    private readonly url: string,
    readonly devices: readonly string[],
  ) {
    for (const device of devices) this.acked.set(device, 0);
  }

  /** Record `sequence` of device k (one second apart in device time). */
  recordOf(k: number, sequence: number) {
    const depot = depotOf(k);
    const latitude = insideAt(sequence) ? depot.latitude : depot.latitude + 0.01;
    const at = new Date(this.t0 + sequence * 1000).toISOString();
    return { ...record(`${this.devices[k]}-${sequence}`, latitude, depot.longitude, at), sequence };
  }

  /** Sends the device's next batch until acknowledged; fails naming it after GIVE_UP_MS. */
  async sendNext(k: number, url = this.url): Promise<void> {
    const device = this.devices[k]!;
    const first = this.acked.get(device)! + 1;
    const records = Array.from({ length: BATCH }, (_, i) => this.recordOf(k, first + i));
    const giveUp = Date.now() + GIVE_UP_MS;
    for (;;) {
      let outcome: string;
      let host = '?';
      const sent = { since: Date.now() };
      this.sending.add(sent);
      try {
        const response = await fetch(`${url}/locations`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ location: records, device_id: device }),
          signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
        });
        host = response.headers.get('x-waypost-host') ?? host;
        outcome = String(response.status);
        await response.text();
      } catch (error) {
        const cause = (error as { cause?: { code?: string } }).cause?.code ?? '';
        outcome = (error as Error).name === 'TimeoutError' ? 'timeout' : `error ${(error as Error).message} ${cause}`;
      } finally {
        this.sending.delete(sent);
      }
      this.attempts.push({ device, first, last: first + BATCH - 1, host, outcome });
      if (outcome === '200') {
        this.acked.set(device, first + BATCH - 1);
        this.batches += 1;
        this.waiters = this.waiters.filter((w) => (this.batches >= w.count ? (w.resolve(), false) : true));
        return;
      }
      // A batch sent is resent until acknowledged, even after stop(): its records may be stored.
      if (Date.now() > giveUp)
        throw new Error(
          `${device} seq ${first}-${first + BATCH - 1} never acknowledged:\n${this.historyOf(device, first)}`,
        );
      await new Promise((resolve) => setTimeout(resolve, PACE_MS));
    }
  }

  start(): void {
    this.running = true;
    this.loops = this.devices.map(async (_, k) => {
      while (this.running) {
        await this.sendNext(k);
        await new Promise((resolve) => setTimeout(resolve, PACE_MS));
      }
    });
  }

  /** Stops sending new batches; resolves once every batch sent is acknowledged. */
  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
  }

  /** Resolves once `count` more batches have been acknowledged; fails naming what it waited for. */
  progress(count: number, during: string, timeoutMs = 60_000): Promise<void> {
    const target = this.batches + count;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new Error(
              `${during}: ${this.batches - (target - count)} of ${count} batches acknowledged in ${timeoutMs} ms; last attempts:\n${this.describe(this.attempts.slice(-12))}`,
            ),
          ),
        timeoutMs,
      );
      this.waiters.push({
        count: target,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      });
    });
  }

  /**
   * Resolves once an attempt has waited `ms` for its answer (one sent to a host that stopped
   * answering); fails naming what it waited for after `timeoutMs`. Checked every 100 ms.
   */
  async stuck(ms: number, during: string, timeoutMs = 10_000): Promise<void> {
    for (const until = Date.now() + timeoutMs; Date.now() < until;) {
      if ([...this.sending].some((sent) => Date.now() - sent.since >= ms)) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`${during}: no upload waited ${ms} ms for its answer within ${timeoutMs} ms`);
  }

  describe(attempts: readonly Attempt[]): string {
    return attempts.map((a) => `  ${a.device} seq ${a.first}-${a.last} via ${a.host}: ${a.outcome}`).join('\n');
  }

  /** The attempts that carried a device's sequence number, for a failure message. */
  historyOf(device: string, sequence: number): string {
    return this.describe(this.attempts.filter((a) => a.device === device && a.first <= sequence && sequence <= a.last));
  }
}
