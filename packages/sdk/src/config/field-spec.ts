import type { Config, GroupName } from './types.js';

/**
 * How the configuration table (fields.ts) describes a field: its type, default, allowed range and
 * a one-line doc, from which validation, defaults, the flat keys and the README's table are made.
 */
export type FieldKind =
  | { type: 'boolean' }
  | { type: 'integer'; min: number; max?: number; allowMinusOne?: boolean }
  | { type: 'number'; min: number; max?: number }
  | { type: 'string'; nullable: boolean; url?: boolean; template?: 'location' | 'geofence' }
  | {
      type: 'enum';
      values: readonly string[];
      /** The anchor's spellings: 'jwt' for JWT, 'post' for POST. */
      caseInsensitive?: boolean;
      /** The anchor's numeric constants for the same values (LogLevel, SQLQueryOrder). */
      numeric?: Readonly<Record<number, string>>;
    }
  | { type: 'stringMap' }
  | { type: 'jsonObject' }
  | { type: 'list'; values: readonly string[] };

export type FieldSpec<T = unknown> = FieldKind & {
  default: T;
  doc: string;
  /** The anchor's older flat key for this field, when it differs from the field name. */
  flatKey?: string;
};

/** One group's fields, each typed by the value it holds in Config. */
export type GroupFields<G extends GroupName> = { [K in keyof Config[G]]: FieldSpec<Config[G][K]> };

/** The longest delay a timer accepts (setTimeout's 32-bit signed limit). */
export const MAX_TIMER_MS = 2_147_483_647;
