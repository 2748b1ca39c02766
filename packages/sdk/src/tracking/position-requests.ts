import { WaypostError } from '../errors.js';
import type { Subscription } from '../events/emitter.js';
import type { ProviderChangeEvent } from '../events/types.js';
import type { Clock } from '../ports/clock.js';
import type { LocationProvider } from '../ports/location-provider.js';
import type { LocationInput } from '../records/location.js';

/** The anchor's CurrentPositionRequest (timeout in seconds, as the anchor's). */
export interface CurrentPositionRequest {
  samples?: number;
  desiredAccuracy?: number;
  timeout?: number;
  persist?: boolean;
  maximumAge?: number;
  extras?: Record<string, unknown>;
}

/** The anchor's WatchPositionRequest (interval in milliseconds). */
export interface WatchPositionRequest {
  interval?: number;
  desiredAccuracy?: number;
  persist?: boolean;
  extras?: Record<string, unknown>;
  timeout?: number;
}

/** The anchor's LocationError codes; Waypost reports LocationUnknown (0) when the provider fails. */
export type LocationErrorCode = 0 | 1 | 2 | 3 | 408 | 499;
export const LOCATION_UNKNOWN = 0;
const DEFAULT_TIMEOUT_S = 30;
const DEFAULT_SAMPLES = 1;
const MAX_SAMPLES = 100;
const DEFAULT_WATCH_INTERVAL_MS = 1000;

type Listener = {
  onFix: (fix: LocationInput) => void;
  onError: (error: Error) => void;
  /** The instance closes: a one-shot request ends now instead of holding close() until its timeout. */
  onClose?: () => void;
};

/**
 * Position requests served by the instance's location provider. One provider session is shared by
 * every request and watch: started for the first, stopped when the last one ends, so a one-shot
 * request never disturbs a running watch. Without a provider the requests fail with
 * NO_LOCATION_PROVIDER.
 */
export class PositionRequests {
  private readonly listeners = new Set<Listener>();
  private running = false;
  private providerDown = false;

  constructor(
    private readonly deps: {
      provider: LocationProvider | undefined;
      clock: Clock;
      emitProviderChange: (event: ProviderChangeEvent) => void;
    },
  ) {}

  /**
   * Waits for `samples` fixes (default 1) and resolves with the most accurate, or rejects with
   * LOCATION_TIMEOUT after `timeout` seconds (default 30).
   */
  current(options: CurrentPositionRequest = {}): Promise<LocationInput> {
    const samples = Math.min(MAX_SAMPLES, Math.max(1, Math.floor(options.samples ?? DEFAULT_SAMPLES)));
    const timeoutMs = Math.max(0, options.timeout ?? DEFAULT_TIMEOUT_S) * 1000;
    return new Promise((resolve, reject) => {
      const got: LocationInput[] = [];
      const finish = (outcome: () => void) => {
        this.deps.clock.clearTimeout(timer);
        this.unsubscribe(listener);
        outcome();
      };
      const listener: Listener = {
        onFix: (fix) => {
          got.push(fix);
          if (got.length >= samples) finish(() => resolve(mostAccurate(got)));
        },
        onError: () => undefined,
        onClose: () =>
          finish(() =>
            reject(new WaypostError('CLOSED', 'getCurrentPosition: the instance was closed before a fix came.')),
          ),
      };
      const timer = this.deps.clock.setTimeout(() => {
        finish(() =>
          got.length > 0
            ? resolve(mostAccurate(got))
            : reject(new WaypostError('LOCATION_TIMEOUT', `getCurrentPosition: no fix within ${timeoutMs / 1000} s.`)),
        );
      }, timeoutMs);
      this.subscribe(listener).catch((error: unknown) => finish(() => reject(error)));
    });
  }

  /** Hands every fix to `onFix`, at most one per `interval` ms, until the subscription is removed. */
  watch(
    options: WatchPositionRequest,
    onFix: (fix: LocationInput) => void,
    onError: (code: LocationErrorCode) => void,
  ): Subscription {
    const interval = Math.max(0, options.interval ?? DEFAULT_WATCH_INTERVAL_MS);
    let last = -Infinity;
    const listener: Listener = {
      onFix: (fix) => {
        const now = this.deps.clock.now();
        if (now - last < interval) return;
        last = now;
        onFix(fix);
      },
      onError: () => onError(LOCATION_UNKNOWN),
    };
    this.subscribe(listener).catch(() => onError(LOCATION_UNKNOWN));
    return { remove: () => this.unsubscribe(listener) };
  }

  private async subscribe(listener: Listener): Promise<void> {
    const { provider } = this.deps;
    if (!provider) {
      throw new WaypostError(
        'NO_LOCATION_PROVIDER',
        'No location provider: pass one to createBackgroundGeolocation({ locationProvider }) to request positions.',
      );
    }
    this.listeners.add(listener);
    if (this.running) return;
    this.running = true;
    await provider.start(
      (fix) => this.deliverFix(fix),
      (error) => this.deliverError(error),
    );
  }

  private unsubscribe(listener: Listener): void {
    this.listeners.delete(listener);
    if (this.listeners.size > 0 || !this.running) return;
    this.running = false;
    void Promise.resolve(this.deps.provider?.stop()).catch(() => undefined);
  }

  private deliverFix(fix: LocationInput): void {
    if (this.providerDown) {
      this.providerDown = false;
      this.deps.emitProviderChange(providerState(true));
    }
    for (const listener of [...this.listeners]) listener.onFix(fix);
  }

  private deliverError(error: Error): void {
    if (!this.providerDown) {
      this.providerDown = true;
      this.deps.emitProviderChange(providerState(false));
    }
    for (const listener of [...this.listeners]) listener.onError(error);
  }

  /** Ends every request: pending one-shot requests reject with CLOSED and their timers are cleared. */
  close(): void {
    for (const listener of [...this.listeners]) {
      if (listener.onClose) listener.onClose();
      else this.unsubscribe(listener);
    }
  }
}

export function providerState(gps: boolean): ProviderChangeEvent {
  return { enabled: true, status: 3, network: true, gps, accuracyAuthorization: 0 };
}

function accuracyOf(fix: LocationInput): number {
  const accuracy = fix.coords?.accuracy ?? fix.accuracy;
  return typeof accuracy === 'number' && accuracy >= 0 ? accuracy : Infinity;
}

function mostAccurate(fixes: LocationInput[]): LocationInput {
  return fixes.reduce((best, fix) => (accuracyOf(fix) < accuracyOf(best) ? fix : best));
}
