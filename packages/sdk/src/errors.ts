/**
 * Every error Waypost throws carries a stable `code` (so callers can branch on it without parsing
 * messages) and a message that says what to do about it.
 */
export type WaypostErrorCode =
  | 'INVALID_CONFIG'
  | 'INVALID_LOCATION'
  | 'INVALID_GEOFENCE'
  | 'NO_URL'
  | 'NOT_READY'
  | 'NOT_STARTED'
  | 'CLOSED'
  | 'TIMEOUT'
  | 'NETWORK'
  | 'STORE';

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
