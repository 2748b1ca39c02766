import type {
  Clock,
  HttpRequest,
  HttpResponse,
  LocationProvider,
  ProviderErrorListener,
  Transport,
} from '@waypost/node';

/**
 * The classes of silence a real fleet has (issue 31), injected one per simulated device, and the
 * cause the server should name for each (docs/device-health.md). `reported`: the device can still
 * reach the server, so it is named from its own report (inferred: false); the others are cut off
 * and named from their last report, inferred.
 */
export const FAULTS = {
  'no-network': { cause: 'no-network', reported: false },
  'wifi-only-cellular': { cause: 'wifi-only', reported: false },
  'server-errors': { cause: 'server-errors', reported: true },
  'retry-after': { cause: 'retry-after', reported: true },
  'auth-refused': { cause: 'auth-refused', reported: true },
  'records-refused': { cause: 'records-refused', reported: true },
  'permission-revoked': { cause: 'permission-denied', reported: true },
  'provider-off': { cause: 'provider-off', reported: true },
  'tracking-stopped': { cause: 'tracking-stopped', reported: true },
  killed: { cause: 'battery-dead', reported: false },
  parked: { cause: 'stationary', reported: true },
  'clock-off': { cause: 'clock-off', reported: true },
} as const satisfies Record<string, { cause: string; reported: boolean }>;
export type Fault = keyof typeof FAULTS;
export const FAULT_NAMES = Object.keys(FAULTS) as Fault[];

/** Faults after which the device records no more fixes (parked, no source, stopped, dead). */
export const RECORDS_NOTHING_AFTER: ReadonlySet<Fault> = new Set([
  'parked',
  'permission-revoked',
  'provider-off',
  'tracking-stopped',
  'killed',
]);

/** How long a simulated Retry-After holds a device (seconds). */
export const RETRY_AFTER_SECONDS = 300;

type ReplyFault = 'server-errors' | 'retry-after' | 'auth-refused' | 'records-refused';
const replies = (
  retryAfterSeconds: number,
): Record<ReplyFault, { status: number; headers?: Record<string, string> }> => ({
  'server-errors': { status: 500 },
  'retry-after': { status: 503, headers: { 'retry-after': String(retryAfterSeconds) } },
  // What a revoked token gets, when the server does not revoke it itself (Fleet.injectFaults).
  'auth-refused': { status: 401 },
  'records-refused': { status: 422 },
});

/**
 * The device's transport with a fault between it and the server's answer: the request reaches the
 * server (which reads its health report), and the device gets the fault's answer instead of the
 * server's, with the server's other headers (what it said it reads).
 */
export class FaultTransport implements Transport {
  fault: ReplyFault | null = null;

  constructor(
    private readonly inner: Transport,
    /** The Retry-After of the `retry-after` fault (seconds). */
    private readonly retryAfterSeconds = RETRY_AFTER_SECONDS,
  ) {}

  async send(request: HttpRequest): Promise<HttpResponse> {
    const response = await this.inner.send(request);
    if (this.fault === null) return response;
    const reply = replies(this.retryAfterSeconds)[this.fault];
    return {
      status: reply.status,
      text: JSON.stringify({ error: `simulated ${this.fault}` }),
      headers: { ...response.headers, ...reply.headers },
    };
  }
}

/**
 * The device's location source: fixes are recorded by the simulator itself, so this one only
 * fails when told (a revoked permission, a provider switched off), as a platform's provider does.
 */
export class FaultProvider implements LocationProvider {
  readonly name = 'simulated location source';
  private onError: ProviderErrorListener | null = null;

  start(_onFix: unknown, onError: ProviderErrorListener): void {
    this.onError = onError;
  }

  stop(): void {
    this.onError = null;
  }

  fail(code: 'PERMISSION_DENIED' | 'SOURCE_UNAVAILABLE'): void {
    this.onError?.(Object.assign(new Error(`simulated ${code}`), { code }));
  }
}

/** The fleet's clock, as a device whose own clock may be off sees it (timers are relative). */
export class OffsetClock implements Clock {
  offsetMs = 0;

  constructor(private readonly inner: Clock) {}

  now(): number {
    return this.inner.now() + this.offsetMs;
  }

  setTimeout(callback: () => void, delayMs: number): unknown {
    return this.inner.setTimeout(callback, delayMs);
  }

  clearTimeout(handle: unknown): void {
    this.inner.clearTimeout(handle);
  }
}
