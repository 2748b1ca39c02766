/** Why a source failed, as a stable code; the provider keeps retrying after each of these. */
export type ProviderErrorCode =
  /** Could not connect or open (gpsd not running, no such device, permission denied). */
  | 'SOURCE_UNAVAILABLE'
  /** Was connected and went away (daemon restarted, device unplugged, peer closed). */
  | 'SOURCE_LOST'
  /** A file source could not be read or holds nothing usable; not retried. */
  | 'SOURCE_INVALID';

export class ProviderError extends Error {
  constructor(
    readonly code: ProviderErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}
