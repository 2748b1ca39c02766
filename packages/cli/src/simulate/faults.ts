import type { Clock, LocationProvider, ProviderErrorListener } from '@waypost/node';
import type { PathMode } from './fault-proxy.js';

/** Where a fault is made: in the network path (the device's fault point), on the device, on the service. */
export type FaultPlace = 'path' | 'device' | 'service';

export interface FaultClass {
  /** The cause the service should name: the truth the simulator injected (docs/device-health.md). */
  cause: string;
  place: FaultPlace;
  /**
   * The service still hears from the device (its uploads or refused requests reach it): it should
   * name `cause` within one upload or presence interval. Otherwise the device is cut off: named a
   * likely cause (inferred) once silent, and when it comes back its silence is explained as `back`.
   */
  heard: boolean;
  /** For a cut-off device: the cause its return should be explained with, for certain. */
  back?: string;
}

/** A gateway's own answers (the fault point answers, the service never sees the request). */
export const GATEWAY_502: PathMode = { kind: 'answer', status: 502, body: '{"error":"Bad Gateway"}' };
export const GATEWAY_404: PathMode = { kind: 'answer', status: 404, body: '{"error":"Not Found"}' };
export const GATEWAY_422: PathMode = {
  kind: 'answer',
  status: 422,
  body: '{"error":"request body rejected by the gateway"}',
};
export const gateway503 = (retryAfterSeconds: number): PathMode => ({
  kind: 'answer',
  status: 503,
  headers: { 'retry-after': String(retryAfterSeconds) },
  body: '{"error":"Service Unavailable"}',
});

/**
 * The classes of silence a real fleet has (issues 31 and 39), one per simulated device, each made
 * where it happens in the field, and the cause the service should name for it.
 */
export const FAULTS = {
  // On the device: its network monitor says so (the SDK's network port).
  'no-network': { cause: 'no-network', place: 'device', heard: false, back: 'no-network' },
  'wifi-only-cellular': { cause: 'wifi-only', place: 'device', heard: false, back: 'wifi-only' },
  // In the network path: the device thinks it is online, its requests fail on the way.
  'network-drops': { cause: 'no-network', place: 'path', heard: false, back: 'no-network' },
  'cut-mid-body': { cause: 'no-network', place: 'path', heard: false, back: 'no-network' },
  timeouts: { cause: 'timeouts', place: 'path', heard: false, back: 'timeouts' },
  'server-errors': { cause: 'server-errors', place: 'path', heard: false, back: 'server-errors' },
  'retry-after': { cause: 'retry-after', place: 'path', heard: false, back: 'retry-after' },
  'records-refused': { cause: 'records-refused', place: 'path', heard: false, back: 'records-refused' },
  'client-errors': { cause: 'client-errors', place: 'path', heard: false, back: 'client-errors' },
  // The service itself refuses: a revoked token, a body it will not take, an operator's action.
  'auth-refused': { cause: 'auth-refused', place: 'service', heard: true },
  'server-refusal': { cause: 'records-refused', place: 'service', heard: true },
  'device-blocked': { cause: 'device-blocked', place: 'service', heard: true },
  'device-deleted': { cause: 'device-deleted', place: 'service', heard: true },
  // On the device, through the SDK's ports, as an application or its user causes them.
  'permission-revoked': { cause: 'permission-denied', place: 'device', heard: true },
  'provider-off': { cause: 'provider-off', place: 'device', heard: true },
  'no-fix': { cause: 'no-fix', place: 'device', heard: true },
  'tracking-stopped': { cause: 'tracking-stopped', place: 'device', heard: true },
  'autosync-off': { cause: 'autosync-off', place: 'device', heard: false, back: 'autosync-off' },
  killed: { cause: 'app-terminated', place: 'device', heard: false, back: 'app-terminated' },
  'battery-dead': { cause: 'battery-dead', place: 'device', heard: false, back: 'app-terminated' },
  parked: { cause: 'stationary', place: 'device', heard: true },
  'clock-off': { cause: 'clock-off', place: 'device', heard: true },
} as const satisfies Record<string, FaultClass>;
export type Fault = keyof typeof FAULTS;
export const FAULT_NAMES = Object.keys(FAULTS) as Fault[];

/** The fault's class, typed as the general shape (optional `back`). */
export const faultClass = (fault: Fault): FaultClass => FAULTS[fault];

/** Causes a healthy device is named with for certain: never wrong. */
export const HEALTHY_CAUSES: ReadonlySet<string> = new Set(['reporting', 'stationary']);

/** Faults after which the device records no more fixes (parked, no source, stopped, dead). */
export const RECORDS_NOTHING_AFTER: ReadonlySet<Fault> = new Set([
  'parked',
  'permission-revoked',
  'provider-off',
  'no-fix',
  'tracking-stopped',
  'killed',
  'battery-dead',
  'device-deleted',
]);

/** How long a gateway's Retry-After holds a device (seconds), unless the run gives one. */
export const RETRY_AFTER_SECONDS = 300;

/**
 * The device's location source: fixes are recorded by the simulator itself, so this one only
 * fails when told (a revoked permission, a provider switched off, no fix), as a platform's does.
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

  fail(code: 'PERMISSION_DENIED' | 'SOURCE_UNAVAILABLE' | 'TIMEOUT'): void {
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
