import type { DeviceInfo } from '../device.js';
import { WaypostError } from '../errors.js';
import type { Clock } from '../ports/clock.js';
import type { NetworkMonitor } from '../ports/network.js';
import type { Store } from '../ports/store.js';
import type { Transport } from '../ports/transport.js';

/**
 * The options of createBackgroundGeolocation() are checked like configuration: a wrong one is
 * refused at once with a WaypostError (code INVALID_OPTION) naming it, never accepted to fail later
 * with a raw TypeError deep inside ("subscribe is not a function"). Each platform lists its options
 * in a table of these rules; the check itself is pure.
 */
export type OptionRule =
  | { kind: 'string'; nonEmpty?: boolean }
  | { kind: 'boolean' }
  | { kind: 'oneOf'; values: readonly (string | number | boolean)[] }
  | { kind: 'function' }
  /** An object with these methods (a port); `orNull` also takes null ("none"). */
  | { kind: 'port'; methods: readonly string[]; orNull?: boolean }
  /** A plain object whose listed members, when present, are strings. */
  | { kind: 'record'; strings: readonly string[] }
  /** false, or a function. */
  | { kind: 'falseOrFunction' };

export type OptionRules = Record<string, OptionRule>;

const describe = (value: unknown): string => {
  if (value === null) return 'null';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value);
  if (typeof value === 'object') return Array.isArray(value) ? 'an array' : 'an object';
  return typeof value === 'function' ? 'a function' : String(value);
};

/** Why `value` breaks `rule`, or null when it keeps it. */
function problem(rule: OptionRule, value: unknown): string | null {
  switch (rule.kind) {
    case 'string':
      if (typeof value !== 'string') return 'must be a string';
      return rule.nonEmpty && value.trim() === '' ? 'must not be empty' : null;
    case 'boolean':
      return typeof value === 'boolean' ? null : 'must be true or false';
    case 'oneOf':
      return rule.values.includes(value as string)
        ? null
        : `must be one of ${rule.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'function':
      return typeof value === 'function' ? null : 'must be a function';
    case 'falseOrFunction':
      return value === false || typeof value === 'function' ? null : 'must be false or a function';
    case 'port': {
      if (value === null && rule.orNull) return null;
      const missing =
        value === null || typeof value !== 'object'
          ? rule.methods
          : rule.methods.filter((m) => typeof (value as Record<string, unknown>)[m] !== 'function');
      return missing.length === 0 ? null : `must be an object with ${missing.map((m) => `${m}()`).join(', ')}`;
    }
    case 'record': {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'must be an object';
      const bad = rule.strings.filter((k) => {
        const member = (value as Record<string, unknown>)[k];
        return member !== undefined && typeof member !== 'string';
      });
      return bad.length === 0 ? null : `.${bad[0]} must be a string`;
    }
  }
}

/** Throws INVALID_OPTION for the first option that breaks its rule or is unknown; `undefined` means "default". */
export function checkOptions(options: unknown, rules: OptionRules, where: string): void {
  if (options === undefined) return;
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new WaypostError('INVALID_OPTION', `${where}: options must be an object, got ${describe(options)}`);
  }
  for (const [name, value] of Object.entries(options)) {
    const rule = rules[name];
    if (!rule) {
      const known = Object.keys(rules).join(', ');
      throw new WaypostError('INVALID_OPTION', `${where}: unknown option ${name} (options: ${known})`, name);
    }
    if (value === undefined) continue;
    const why = problem(rule, value);
    if (why) throw new WaypostError('INVALID_OPTION', `${where}: option ${name} ${why}, got ${describe(value)}`, name);
  }
}

/** The rules of the ports every platform takes. */
export const PORT_RULES = {
  network: { kind: 'port', methods: ['current', 'subscribe'] },
  clock: { kind: 'port', methods: ['now', 'setTimeout', 'clearTimeout'] },
  transport: { kind: 'port', methods: ['send'] },
  store: { kind: 'port', methods: ['close'] },
  device: { kind: 'record', strings: ['uuid', 'model', 'manufacturer', 'platform', 'version'] },
} as const satisfies OptionRules;

/** The options every platform's createBackgroundGeolocation() takes, as PORT_RULES checks them. */
export interface CommonCreateOptions {
  /** Where the queue, log, configuration and geofences live (a file, an IndexedDB database name). */
  database?: string;
  /** Default: the platform's view of the network. */
  network?: NetworkMonitor;
  /** Default: the system clock. */
  clock?: Clock;
  device?: Partial<DeviceInfo>;
  /** Default: fetch. */
  transport?: Transport;
  /** A store other than the platform's (createMemoryStore() for instance); `database` is then unused. */
  store?: Store;
}
