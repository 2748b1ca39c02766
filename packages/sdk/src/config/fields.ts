import { AUTHORIZATION_FIELDS } from './auth-fields.js';
import { APP_FIELDS, GEOLOCATION_FIELDS, LOGGER_FIELDS } from './device-fields.js';
import type { FieldSpec, GroupFields } from './field-spec.js';
import { PERSISTENCE_FIELDS } from './store-fields.js';
import type { Config, GroupName, JsonValue } from './types.js';
import { UPLOAD_FIELDS } from './upload-fields.js';

/**
 * The single table of configuration fields, one group a module (field-spec.ts says how a field is
 * described). Validation, defaults, the flat-key mapping and the README's table are all generated
 * from it, in this order of groups.
 */
export const CONFIG_FIELDS: { [G in GroupName]: GroupFields<G> } = {
  http: UPLOAD_FIELDS,
  persistence: PERSISTENCE_FIELDS,
  app: APP_FIELDS,
  logger: LOGGER_FIELDS,
  geolocation: GEOLOCATION_FIELDS,
  authorization: AUTHORIZATION_FIELDS,
};

export const GROUP_NAMES = Object.keys(CONFIG_FIELDS) as GroupName[];

export function fieldsOf(group: GroupName): Record<string, FieldSpec> {
  return CONFIG_FIELDS[group] as unknown as Record<string, FieldSpec>;
}

function cloneJson<T>(value: T): T {
  return value === null || typeof value !== 'object' ? value : (JSON.parse(JSON.stringify(value)) as T);
}

export function defaultConfig(): Config {
  const config: Record<string, Record<string, unknown>> = {};
  for (const group of GROUP_NAMES) {
    const values: Record<string, unknown> = {};
    for (const [key, spec] of Object.entries(fieldsOf(group))) values[key] = cloneJson(spec.default);
    config[group] = values;
  }
  return config as unknown as Config;
}

export function cloneConfig(config: Config): Config {
  return cloneJson(config);
}

/** Renders a default for documentation: the README's table is generated from this. */
export function describeDefault(value: unknown): string {
  if (value === null) return 'none';
  return JSON.stringify(value as JsonValue);
}
