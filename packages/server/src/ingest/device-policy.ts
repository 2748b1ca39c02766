import { HttpError } from '../errors.js';
import type { Command } from '../store/commands.js';
import type { DeviceStatus } from '../store/devices.js';
import type { OrgStatus } from '../store/orgs.js';

const STOP: Command = ['stop'];

/**
 * The commands a banned organization's devices get: the demo server's list (stop persisting, stop,
 * and the ban notice), less its `debug: true`, which would make the phone beep at its user.
 */
export function bannedCommands(org: string): Command[] {
  return [
    ['setConfig', { maxRecordsToPersist: 0 }],
    STOP,
    ['ban', `The organization "${org}" is banned on this server`],
  ];
}

/**
 * The reply for a device that may not upload, register or refresh (null when it may): nothing is
 * stored and the device is told to stop. Below both the ingest service and its queue, so neither
 * imports the other for it.
 */
export function refuseDevice(
  deviceId: string,
  status: DeviceStatus,
  org: { name: string; status: OrgStatus } | null = null,
): HttpError | null {
  if (status === 'deleted') {
    return new HttpError(410, 'DEVICE_DELETED', `Device ${deviceId} was deleted on this server`, {
      background_geolocation: STOP,
    });
  }
  if (status === 'blocked') {
    return new HttpError(403, 'DEVICE_BLOCKED', `Device ${deviceId} is blocked on this server`, {
      background_geolocation: STOP,
    });
  }
  if (org?.status === 'deleted') {
    return new HttpError(410, 'ORG_DELETED', `The organization "${org.name}" was deleted on this server`, {
      background_geolocation: STOP,
    });
  }
  if (org?.status === 'banned') {
    return new HttpError(403, 'BANNED', `The organization "${org.name}" is banned on this server`, {
      background_geolocation: bannedCommands(org.name),
    });
  }
  return null;
}

/** A write without a device credential for a device that holds one (issue 41): 401, counted by the caller. */
export const credentialRequired = (deviceId: string): HttpError =>
  new HttpError(
    401,
    'CREDENTIAL_REQUIRED',
    `Device ${deviceId} has a device token or key on this server: its uploads must carry it (Authorization: Bearer, HTTP Basic password, or ?key=)`,
  );
