/**
 * Time is a port so that heartbeats, retention, token expiry and motion detection are driven by
 * an injected clock in tests instead of sleeps.
 */
export type TimerHandle = unknown;

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  setTimeout(callback: () => void, delayMs: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}
