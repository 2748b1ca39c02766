import type { RemoteCommandName } from '../config/types.js';
import { REMOTE_COMMANDS } from '../config/fields.js';

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
};

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
