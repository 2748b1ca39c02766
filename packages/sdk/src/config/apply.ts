import { WaypostError } from '../errors.js';
import { GROUP_NAMES, cloneConfig, fieldsOf } from './fields.js';
import { FLAT_KEYS, IGNORED_ANCHOR_KEYS } from './flat-keys.js';
import { nearestKey } from './suggest.js';
import { validateField } from './validate-field.js';
import type { Config, GroupName } from './types.js';

export interface AppliedConfig {
  config: Config;
  /** The anchor keys Waypost keeps but does not act on, with their values. */
  ignored: Record<string, unknown>;
  /** Dotted names of the fields whose value changed. */
  changed: string[];
}

function unknownKey(key: string, known: Iterable<string>): never {
  const suggestion = nearestKey(key.split('.').pop()!, known);
  const prefix = key.includes('.') ? key.slice(0, key.lastIndexOf('.') + 1) : '';
  throw new WaypostError(
    'INVALID_CONFIG',
    `${key}: unknown configuration key.${suggestion ? ` Did you mean ${prefix}${suggestion}?` : ''}`,
    key,
  );
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Applies a `ready()` / `setConfig()` input onto `base` and returns a new configuration; `base` is
 * never touched, so a rejected input leaves the running configuration exactly as it was.
 */
export function applyConfigInput(
  base: Config,
  input: unknown,
  ignoredBase: Record<string, unknown> = {},
): AppliedConfig {
  if (!isPlainObject(input)) {
    throw new WaypostError('INVALID_CONFIG', 'The configuration must be an object, such as { http: { url } }.');
  }
  const config = cloneConfig(base);
  const ignored = { ...ignoredBase };
  const groups = config as unknown as Record<GroupName, Record<string, unknown>>;
  const set = (group: GroupName, field: string, value: unknown, key: string) => {
    groups[group][field] = validateField(key, fieldsOf(group)[field]!, value);
  };

  for (const [key, value] of Object.entries(input)) {
    if (value === undefined) continue;
    if (key === 'reset') {
      if (typeof value !== 'boolean') throw new WaypostError('INVALID_CONFIG', `reset: expected true or false.`, key);
      continue;
    }
    if ((GROUP_NAMES as string[]).includes(key)) {
      const group = key as GroupName;
      if (!isPlainObject(value)) {
        throw new WaypostError('INVALID_CONFIG', `${key}: expected an object of ${key} settings.`, key);
      }
      const fields = fieldsOf(group);
      for (const [field, fieldValue] of Object.entries(value)) {
        if (fieldValue === undefined) continue;
        if (!Object.hasOwn(fields, field)) unknownKey(`${group}.${field}`, Object.keys(fields));
        set(group, field, fieldValue, `${group}.${field}`);
      }
      continue;
    }
    const flat = FLAT_KEYS.get(key);
    if (flat) {
      set(flat.group, flat.field, value, key);
      continue;
    }
    if (IGNORED_ANCHOR_KEYS.has(key)) {
      ignored[key] = value;
      continue;
    }
    unknownKey(key, [...GROUP_NAMES, ...FLAT_KEYS.keys(), ...IGNORED_ANCHOR_KEYS]);
  }

  const changed: string[] = [];
  for (const group of GROUP_NAMES) {
    for (const field of Object.keys(fieldsOf(group))) {
      const before = JSON.stringify((base as unknown as Record<string, Record<string, unknown>>)[group]![field]);
      if (JSON.stringify(groups[group][field]) !== before) changed.push(`${group}.${field}`);
    }
  }
  return { config, ignored, changed };
}
