import type { LocationInput } from '../records/location.js';

/**
 * The location provider port: where fixes come from (gpsd, an NMEA receiver, a GPX replay, the
 * browser's Geolocation API, a test script). A provider only turns its input into recordLocation()
 * input; what happens to a fix (odometer, motion, geofences, the queue) is the SDK's business.
 */

/**
 * Called once per fix, already in recordLocation() input form, with the fix's own time. A source
 * that can wait (a file replayed as fast as possible) waits for a returned promise before the
 * next fix, so a fast file cannot outrun the database; a live source does not wait.
 */
export type FixListener = (fix: LocationInput) => void | Promise<unknown>;

/**
 * Called when the source fails (daemon gone, device unplugged, a malformed line worth telling).
 * Errors are reported, never thrown: a provider that can recover (reconnect, reopen) keeps trying
 * by itself until stop(). `error.code` is a stable code when the adapter has one.
 */
export type ProviderErrorListener = (error: Error & { code?: string }) => void;

/** Called once when a finite source (a file, a replay) has delivered everything it has. */
export type ProviderEndListener = () => void;

export interface LocationProvider {
  /** A short human name for logs, e.g. "gpsd 127.0.0.1:2947". Never holds a credential. */
  readonly name?: string;
  /**
   * Begins delivering fixes. Calling start() on a started provider is a mistake the provider may
   * ignore. A source that is unavailable at start is reported through onError and retried; start
   * itself does not fail for that.
   */
  start(onFix: FixListener, onError: ProviderErrorListener, onEnd?: ProviderEndListener): void | Promise<void>;
  /** Stops delivering fixes and releases the source (sockets, files, timers). Idempotent. */
  stop(): void | Promise<void>;
}
