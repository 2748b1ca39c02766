import { HttpError } from '../errors.js';
import type { RegistrationMode } from '../options.js';

/** What a caller proved when asking for a device's tokens. */
export interface RegistrationCredentials {
  /** The admin token (header or dashboard session). */
  admin: boolean;
  /** The device whose valid access token was sent, if any. */
  device: string | null;
  /** The server's enrollment secret (registration 'secret'). */
  secret: boolean;
}

/**
 * Whether a caller may have tokens issued for `deviceId`: null when allowed, else the refusal.
 * Pure, so every registration route (the SDK's /auth/register, the anchor's /api/register ...)
 * decides the same way. An id that is already registered is never handed to a new caller: only
 * the admin or that device itself (its own access token) may register it again, in every mode;
 * that stops device takeover. A new id needs what the mode asks for.
 */
export function decideRegistration(
  mode: RegistrationMode,
  credentials: RegistrationCredentials,
  deviceId: string,
  exists: boolean,
): HttpError | null {
  if (credentials.admin) return null;
  if (exists) {
    if (credentials.device === deviceId) return null;
    return new HttpError(
      409,
      'DEVICE_EXISTS',
      `Device ${deviceId} is already registered: registering it again needs its own access token or the admin token`,
    );
  }
  if (mode === 'open') return null;
  if (mode === 'secret') {
    if (credentials.secret) return null;
    return new HttpError(
      401,
      'REGISTRATION_SECRET_REQUIRED',
      'This server registers devices with its enrollment secret: send it in the X-Registration-Secret header',
    );
  }
  return new HttpError(
    401,
    'REGISTRATION_CLOSED',
    'This server registers devices for the admin only: send Authorization: Bearer <adminToken>',
  );
}
