/**
 * Every error Waypost throws carries a stable `code` (so callers can branch on it without parsing
 * messages) and a message that says what to do about it.
 */
export type WaypostErrorCode =
  | 'INVALID_CONFIG'
  /** createBackgroundGeolocation() given an unknown or malformed option (the key names it). */
  | 'INVALID_OPTION'
  | 'INVALID_LOCATION'
  | 'INVALID_GEOFENCE'
  | 'NO_URL'
  | 'NOT_READY'
  | 'NOT_STARTED'
  | 'CLOSED'
  | 'TIMEOUT'
  | 'NETWORK'
  | 'STORE'
  /** A getLocations()/getLog() query with a bad limit, offset, page, order or time range. */
  | 'INVALID_QUERY'
  /** The operation needs something this host does not have (mail for emailLog). */
  | 'NOT_SUPPORTED'
  /** getCurrentPosition()/watchPosition() on an instance created without a location provider. */
  | 'NO_LOCATION_PROVIDER'
  /** A position request that got no fix in time. */
  | 'LOCATION_TIMEOUT'
  /** Registration with a server (findOrCreateTransistorAuthorizationToken) was refused or failed. */
  | 'REGISTRATION_FAILED';

export class WaypostError extends Error {
  readonly code: WaypostErrorCode;
  /** The configuration key or input field the error is about, when there is one. */
  readonly key: string | undefined;

  constructor(code: WaypostErrorCode, message: string, key?: string) {
    super(message);
    this.name = 'WaypostError';
    this.code = code;
    this.key = key;
  }
}

export function isWaypostError(error: unknown, code?: WaypostErrorCode): error is WaypostError {
  return error instanceof WaypostError && (code === undefined || error.code === code);
}
