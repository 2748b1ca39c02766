import { WaypostError } from '../errors.js';
import { jsonProblem } from './json-bounds.js';
import type { JsonObject } from '../config/types.js';

export interface Coords {
  latitude: number;
  longitude: number;
  /** Metres; -1 when unknown. The same convention holds for every optional coordinate. */
  accuracy: number;
  speed: number;
  heading: number;
  altitude: number;
  altitude_accuracy: number;
}

export type GeofenceAction = 'ENTER' | 'EXIT' | 'DWELL';

/** The anchor's MotionActivityType: what `activity.type` may be. */
export const MOTION_ACTIVITY_TYPES = [
  'still',
  'walking',
  'on_foot',
  'running',
  'on_bicycle',
  'in_vehicle',
  'unknown',
] as const;
export type MotionActivityType = (typeof MOTION_ACTIVITY_TYPES)[number];

/** A caller-supplied uuid is kept (as the anchor's insertLocation does); bounded like any input. */
const MAX_UUID_CHARS = 128;

/** The default record schema (the anchor's): what is stored and uploaded when no template is set. */
export interface Location {
  uuid: string;
  timestamp: string;
  is_moving: boolean;
  odometer: number;
  event?: 'motionchange' | 'geofence' | 'heartbeat';
  mock?: boolean;
  coords: Coords;
  activity: { type: MotionActivityType; confidence: number };
  battery: { level: number; is_charging: boolean };
  extras: JsonObject;
  geofence?: { identifier: string; action: GeofenceAction; extras: JsonObject };
  /**
   * Waypost: the record's per-device sequence number (1, 2, ...; the delivery ledger), set when it
   * is stored. It never repeats on this device's store, across restarts, destroyLocations() and reset().
   */
  sequence?: number;
  /**
   * Waypost: the epoch of the numbering `sequence` belongs to (issue 39; ledger/epoch.ts), made when
   * the store's numbering started. Absent for a store numbered before epochs existed.
   */
  sequence_epoch?: string;
}

/** What a location provider hands to recordLocation()/insertLocation(). */
export interface LocationInput {
  latitude?: number;
  longitude?: number;
  accuracy?: number;
  speed?: number;
  heading?: number;
  altitude?: number;
  altitude_accuracy?: number;
  coords?: Partial<Coords>;
  /** ISO-8601 text, epoch milliseconds or a Date; default: now. */
  timestamp?: string | number | Date;
  activity?: { type?: string; confidence?: number };
  battery?: { level?: number; is_charging?: boolean };
  extras?: JsonObject;
  mock?: boolean;
  /** Kept as the record's uuid (insertLocation); recordLocation makes its own when absent. */
  uuid?: string;
}

/** A validated input: everything a record needs except the SDK's own state (uuid, motion, odometer). */
export interface Fix {
  /** A uuid given with the input (insertLocation keeps it); otherwise one is made. */
  uuid?: string;
  coords: Coords;
  time: number;
  activity: { type: MotionActivityType; confidence: number };
  battery: { level: number; is_charging: boolean };
  extras: JsonObject;
  mock: boolean | undefined;
}

function show(value: unknown): string {
  if (typeof value === 'number' || value === undefined) return String(value);
  if (typeof value === 'string') return JSON.stringify(value.length > 64 ? `${value.slice(0, 64)}...` : value);
  // Objects are never serialized into a message: they may be huge or nested without bound.
  return value instanceof Date ? String(value.getTime()) : typeof value === 'object' ? 'this value' : String(value);
}

function invalid(field: string, value: unknown, expected: string): never {
  const shown = show(value);
  throw new WaypostError(
    'INVALID_LOCATION',
    `Location ${field}: ${shown} is not valid; expected ${expected}. Nothing was stored.`,
    field,
  );
}

function required(field: string, value: unknown, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
    invalid(field, value, `a number from ${min} to ${max}`);
  }
  return value;
}

function optional(field: string, value: unknown, min = -Infinity): number {
  if (value === undefined || value === null) return -1;
  if (typeof value !== 'number' || !Number.isFinite(value) || (value < min && value !== -1)) {
    invalid(field, value, min === -Infinity ? 'a finite number' : `a number >= ${min}, or -1 when unknown`);
  }
  return value;
}

/** Timestamps from 1970 to the end of year 9999: what ISO-8601 text renders without an expanded year. */
export const MAX_TIMESTAMP_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

function parseTime(value: LocationInput['timestamp'], now: number): number {
  if (value === undefined) return now;
  const time =
    value instanceof Date
      ? value.getTime()
      : typeof value === 'number'
        ? value
        : typeof value === 'string' && value.length <= 64
          ? Date.parse(value)
          : NaN;
  if (!Number.isFinite(time) || time < 0 || time > MAX_TIMESTAMP_MS) {
    invalid('timestamp', value, 'ISO-8601 text, epoch milliseconds or a Date, from 1970 to 9999');
  }
  return time;
}

/** The host's battery, for fixes whose provider does not know it (a GNSS receiver never does). */
export type BatteryReader = () => { level: number; is_charging: boolean };

/**
 * Validates a location input completely before anything is stored. `hostBattery` fills in the
 * battery when the input carries none.
 */
export function parseLocationInput(input: unknown, now: number, hostBattery?: BatteryReader): Fix {
  if (input === null || typeof input !== 'object')
    invalid('input', input, 'an object with coords.latitude and coords.longitude');
  const raw = input as LocationInput;
  const c = (raw.coords ?? raw) as Partial<Coords>;
  if (c.latitude === undefined || c.longitude === undefined) {
    invalid(
      c.latitude === undefined ? 'coords.latitude' : 'coords.longitude',
      undefined,
      'a number (coords are required)',
    );
  }
  const coords: Coords = {
    latitude: required('coords.latitude', c.latitude, -90, 90),
    longitude: required('coords.longitude', c.longitude, -180, 180),
    accuracy: optional('coords.accuracy', c.accuracy, 0),
    speed: optional('coords.speed', c.speed, 0),
    heading: optional('coords.heading', c.heading, 0),
    altitude: optional('coords.altitude', c.altitude),
    altitude_accuracy: optional('coords.altitude_accuracy', c.altitude_accuracy, 0),
  };
  const activity = raw.activity ?? {};
  if (activity.type !== undefined && !(MOTION_ACTIVITY_TYPES as readonly unknown[]).includes(activity.type)) {
    invalid('activity.type', activity.type, `one of ${MOTION_ACTIVITY_TYPES.join(', ')}`);
  }
  const uuid = (raw as { uuid?: unknown }).uuid;
  if (uuid !== undefined && (typeof uuid !== 'string' || uuid.length === 0 || uuid.length > MAX_UUID_CHARS)) {
    invalid('uuid', uuid, `a string of 1 to ${MAX_UUID_CHARS} characters`);
  }
  const battery = raw.battery ?? hostBattery?.() ?? {};
  if (
    battery.level !== undefined &&
    (typeof battery.level !== 'number' || !(battery.level >= -1 && battery.level <= 1))
  ) {
    invalid('battery.level', battery.level, 'a number from 0 to 1, or -1 when unknown');
  }
  if (
    raw.extras !== undefined &&
    (raw.extras === null || typeof raw.extras !== 'object' || Array.isArray(raw.extras))
  ) {
    invalid('extras', raw.extras, 'an object');
  }
  const extrasProblem = raw.extras === undefined ? null : jsonProblem(raw.extras);
  if (extrasProblem) invalid('extras', raw.extras, `bounded JSON (it has ${extrasProblem})`);
  if (activity.type !== undefined && activity.type.length > 64)
    invalid('activity.type', activity.type, 'at most 64 characters');
  if (raw.mock !== undefined && typeof raw.mock !== 'boolean') invalid('mock', raw.mock, 'true or false');
  return {
    coords,
    time: parseTime(raw.timestamp, now),
    ...(uuid === undefined ? {} : { uuid: uuid as string }),
    activity: {
      type: (activity.type as MotionActivityType | undefined) ?? 'unknown',
      confidence: optional('activity.confidence', activity.confidence, 0),
    },
    battery: { level: battery.level ?? -1, is_charging: battery.is_charging === true },
    extras: raw.extras ? (JSON.parse(JSON.stringify(raw.extras)) as JsonObject) : {},
    mock: raw.mock,
  };
}
