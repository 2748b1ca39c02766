import type { HttpRequest, HttpResponse, Transport } from '@waypost/node';

/** A Retry-After in seconds (or an HTTP date); null when absent or unreadable. */
export function retryAfterMs(value: string | undefined, now: number): number | null {
  if (value === undefined) return null;
  const seconds = Number(value.trim());
  if (value.trim() !== '' && Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const at = Date.parse(value);
  return Number.isFinite(at) ? Math.max(0, at - now) : null;
}

/**
 * The simulated fleet's pace on the service's terms, in real time. The SDKs run on a simulated
 * clock (at --speedup 0 an hour passes in seconds), so the Retry-After they honour is over in
 * simulated time long before the service's limit has refilled in real time: without this the
 * fleet keeps asking and gets a 429 for most requests. A 429 or 503 with Retry-After holds the
 * whole fleet (the per-address limit is shared) until that real time, up to `maxHoldMs`; a longer
 * one is not waited for here (the run goes on, the records wait in the queues and the summary says
 * why).
 */
export class ServicePace {
  private holdUntil = 0;
  /** 429 answers seen, and the longest Retry-After that was not waited for. */
  throttled = 0;
  tooLongMs: number | null = null;
  private halted = false;
  /** Whoever sleeps (the run, a drain, requests held back): halt() wakes them all. */
  private readonly sleepers = new Set<() => void>();

  constructor(private readonly maxHoldMs: number) {}

  /**
   * Wraps a device's transport: no request leaves before a Retry-After the service gave is over
   * (whatever the simulated clock says), and every answer is seen before the SDK acts on it.
   */
  observe(inner: Transport): Transport {
    return {
      send: async (request: HttpRequest): Promise<HttpResponse> => {
        await this.awaitService();
        const response = await inner.send(request);
        if (response.status === 429 || response.status === 503) this.told(response);
        return response;
      },
    };
  }

  /** Real time still to wait before the next request; 0 when none is asked. */
  get waitMs(): number {
    return this.halted ? 0 : Math.max(0, this.holdUntil - Date.now());
  }

  /** Sleeps `ms` of real time, cut short by halt(). */
  sleep(ms: number): Promise<void> {
    if (this.halted || ms <= 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.sleepers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.sleepers.add(wake);
    });
  }

  /** Waits for a Retry-After the service gave, no longer than until `deadline` (epoch ms). */
  awaitService(deadline = Infinity): Promise<void> {
    return this.sleep(Math.min(this.waitMs, deadline - Date.now()));
  }

  /** The run is being stopped (a signal): nothing waits any more. */
  halt(): void {
    this.halted = true;
    [...this.sleepers].forEach((wake) => wake());
  }

  get isHalted(): boolean {
    return this.halted;
  }

  private told(response: HttpResponse): void {
    if (response.status === 429) this.throttled++;
    const ms = retryAfterMs(response.headers?.['retry-after'], Date.now());
    if (ms === null) return;
    if (ms > this.maxHoldMs) {
      this.tooLongMs = Math.max(this.tooLongMs ?? 0, ms);
      return;
    }
    this.holdUntil = Math.max(this.holdUntil, Date.now() + ms);
  }
}
