import type { RemoteCommandName } from '../config/types.js';
import { REMOTE_COMMANDS } from '../config/upload-fields.js';
import { MAX_CLAIM_RANGES } from '../receipts/receipted-header.js';

/** What a remote command takes: at most `max` arguments, checked by `check`, described by `takes`. */
export interface CommandRule {
  max: number;
  /** The argument as a person types it, for forms and error messages. */
  takes: string;
  check?: (args: unknown[]) => string | null;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * The SDK's own command table: the device checks every command it receives against it, and the
 * server checks commands against it before queueing them, so both agree on what is valid.
 */
export const COMMAND_TABLE: Readonly<Record<RemoteCommandName, CommandRule>> = {
  start: { max: 0, takes: 'no argument' },
  stop: { max: 0, takes: 'no argument' },
  startGeofences: { max: 0, takes: 'no argument' },
  destroyLog: { max: 0, takes: 'no argument' },
  changePace: {
    max: 1,
    takes: 'true (moving) or false (stationary)',
    check: ([v]) => (typeof v === 'boolean' ? null : 'expects true or false'),
  },
  setConfig: {
    max: 1,
    takes: 'a configuration object, e.g. {"http": {"autoSync": false}}',
    check: ([v]) => (isObject(v) ? null : 'expects a configuration object'),
  },
  addGeofence: {
    max: 1,
    takes: 'a geofence {"identifier", "latitude", "longitude", "radius", ...}',
    check: ([v]) => (isObject(v) ? null : 'expects a geofence object'),
  },
  addGeofences: {
    max: 1,
    takes: 'a list of geofences',
    check: ([v]) => (Array.isArray(v) ? null : 'expects a list of geofences'),
  },
  removeGeofence: {
    max: 1,
    takes: 'a geofence identifier (a string)',
    check: ([v]) => (typeof v === 'string' ? null : 'expects a geofence identifier'),
  },
  removeGeofences: {
    max: 1,
    takes: 'a list of identifiers, or nothing (all)',
    check: ([v]) =>
      v === undefined || (Array.isArray(v) && v.every((id) => typeof id === 'string'))
        ? null
        : 'expects a list of identifiers, or nothing',
  },
  uploadLog: {
    max: 1,
    takes: 'the http(s) URL to upload the log to',
    check: ([v]) => (typeof v === 'string' && /^https?:\/\//.test(v) ? null : 'expects an http(s) URL'),
  },
  resendReceipted: {
    max: 1,
    takes: 'the receipted numbers to send again, {"epoch": "<id>" or null, "ranges": [[from, to], ...]}',
    check: ([v]) => (repairRequestOf(v) ? null : 'expects {"epoch", "ranges": [[from, to], ...]}'),
  },
};

/** A resendReceipted argument, checked and bounded (issue 46), or null. */
export function repairRequestOf(value: unknown): { epoch: string | null; ranges: [number, number][] } | null {
  if (!isObject(value) || !Array.isArray(value.ranges) || value.ranges.length > MAX_CLAIM_RANGES) return null;
  const epoch = value.epoch ?? null;
  if (!(epoch === null || (typeof epoch === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(epoch)))) return null;
  const ranges: [number, number][] = [];
  for (const r of value.ranges as unknown[]) {
    if (!Array.isArray(r) || r.length !== 2 || !r.every((n) => Number.isSafeInteger(n) && n >= 1) || r[0] > r[1]) {
      return null;
    }
    ranges.push([r[0], r[1]]);
  }
  return { epoch, ranges };
}

/**
 * Why a command is invalid (unknown name, too many arguments, wrong argument type), or null when
 * it is valid. A missing required argument is a wrong type: `["changePace"]` expects true or false.
 */
export function checkRemoteCommand(name: string, args: readonly unknown[]): string | null {
  if (!(REMOTE_COMMANDS as readonly string[]).includes(name)) {
    return `unknown command; known: ${REMOTE_COMMANDS.join(', ')}`;
  }
  const rule = COMMAND_TABLE[name as RemoteCommandName];
  if (args.length > rule.max) return `takes ${rule.max === 0 ? 'no argument' : 'one argument'}`;
  return rule.check ? rule.check([...args]) : null;
}
