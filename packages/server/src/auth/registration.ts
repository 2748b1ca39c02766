import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { badRequest, HttpError } from '../errors.js';
import { refuseDevice } from '../ingest/device-policy.js';
import { createDeviceIfAbsent, describeDevice } from '../store/devices.js';
import { principalOf, sameSecret } from './principal.js';
import { decideRegistration, type RegistrationCredentials } from './registration-policy.js';
import type { TokenPair } from './tokens.js';

/** Header carrying the enrollment secret of registration 'secret' (never a URL parameter). */
export const REGISTRATION_SECRET_HEADER = 'x-registration-secret';

/** What the caller proved: admin token or session, a device's valid access token, the enrollment secret. */
export async function registrationCredentials(
  ctx: AppContext,
  request: FastifyRequest,
): Promise<RegistrationCredentials> {
  let admin = false;
  let device: string | null = null;
  try {
    const principal = await principalOf(ctx, request);
    admin = principal.kind === 'admin';
    device = principal.kind === 'device' ? principal.deviceId : null;
  } catch {
    // An expired or foreign token proves nothing; the decision then says what is missing.
  }
  const sent = request.headers[REGISTRATION_SECRET_HEADER];
  const secret =
    typeof sent === 'string' && ctx.options.registrationSecret !== null
      ? sameSecret(sent, ctx.options.registrationSecret)
      : false;
  return { admin, device, secret };
}

/** What a device may say about itself at registration, as JSON text. */
const MAX_INFO_LENGTH = 16 * 1024;

export interface DeviceRegistration {
  deviceId: string;
  model: string | null;
  /** The name a person gave it (the tracker page's "Device name"), shown in the dashboard. */
  name?: string | null;
  /** What the device said about itself (stored as the device's info). */
  info: Record<string, unknown>;
}

/**
 * Registers a device under the server's registration policy and issues its first token pair (a
 * new refresh-token family), for any route that registers devices. The existence check and the
 * insert are one statement inside the transaction, so two callers racing for a new id cannot both
 * win: the second finds it registered. A refusal rolls everything back.
 */
export async function registerDevice(
  ctx: AppContext,
  request: FastifyRequest,
  registration: DeviceRegistration,
): Promise<TokenPair> {
  const info = JSON.stringify(registration.info);
  if (info.length > MAX_INFO_LENGTH) {
    throw badRequest(
      'TEXT_TOO_LONG',
      `The device description is ${info.length} characters; at most ${MAX_INFO_LENGTH}`,
    );
  }
  const credentials = await registrationCredentials(ctx, request);
  const { deviceId, model } = registration;
  return ctx.db.transaction(async (tx) => {
    const { created, status } = await createDeviceIfAbsent(tx, deviceId, model, ctx.now());
    const refusal: HttpError | null =
      decideRegistration(ctx.options.registration, credentials, deviceId, !created) ?? refuseDevice(deviceId, status);
    if (refusal) throw refusal;
    await describeDevice(tx, deviceId, model, info, ctx.now(), registration.name ?? null);
    return ctx.tokens.issue(tx, deviceId);
  });
}
