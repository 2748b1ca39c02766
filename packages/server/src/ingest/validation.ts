import { badRequest } from '../errors.js';

/**
 * The input rules every upload obeys, each broken rule a 400 with a stable code (nothing of the
 * request is stored). Bounds are generous for real devices and tight enough that hostile input
 * cannot break storage, rendering or the dashboard.
 */
export const INPUT_LIMITS = {
  /** Device ids, record uuids and similar identifiers, in characters. */
  maxIdLength: 200,
  /** Free text a device says about itself (model, log fields), in characters. */
  maxTextLength: 200,
  /** Nesting of arrays and objects in a body (a default-schema record needs 4 inside a batch). */
  maxDepth: 32,
} as const;

/** Recorded times are accepted from 2000-01-01 ... */
export const EARLIEST_TIMESTAMP_MS = Date.UTC(2000, 0, 1);
/** ... to one day after the server's clock (devices with a clock a little ahead still upload). */
export const MAX_FUTURE_MS = 24 * 3600 * 1000;

/** Whether a recorded time is inside the plausible window (else the device's clock is suspect). */
export const timestampPlausible = (ms: number, now: number): boolean =>
  ms >= EARLIEST_TIMESTAMP_MS && ms <= now + MAX_FUTURE_MS;

/** Epoch ms inside the documented window; 400 TIMESTAMP_OUT_OF_RANGE otherwise. */
export function checkTimestamp(ms: number, where: string, now: number): number {
  if (!Number.isFinite(ms) || ms < EARLIEST_TIMESTAMP_MS || ms > now + MAX_FUTURE_MS) {
    const shown = Number.isFinite(ms) && Math.abs(ms) <= 8.64e15 ? new Date(ms).toISOString() : String(ms);
    throw badRequest(
      'TIMESTAMP_OUT_OF_RANGE',
      `${where} (${shown}) is outside the accepted window: 2000-01-01 to one day after the server's time`,
    );
  }
  return ms;
}

/** A device id: a non-empty string of at most maxIdLength characters; 400 INVALID_DEVICE_ID otherwise. */
export function checkDeviceId(value: unknown, where: string): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw badRequest('INVALID_DEVICE_ID', `${where} must be a non-empty string, got ${describe(value)}`);
  }
  if (value.length > INPUT_LIMITS.maxIdLength) {
    throw badRequest(
      'INVALID_DEVICE_ID',
      `${where} is ${value.length} characters long; at most ${INPUT_LIMITS.maxIdLength} are accepted`,
    );
  }
  return value;
}

/** Optional text (model, a log field): null when absent, 400 TEXT_TOO_LONG beyond `max`. */
export function checkText(value: unknown, where: string, max: number = INPUT_LIMITS.maxTextLength): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw badRequest('INVALID_TYPE', `${where} must be a string, got ${describe(value)}`);
  if (value.length > max) {
    throw badRequest('TEXT_TOO_LONG', `${where} is ${value.length} characters long; at most ${max} are accepted`);
  }
  return value;
}

/**
 * Whether arrays and objects nest deeper than `max` levels. Iterative, so a hostile body nested
 * thousands deep cannot overflow the stack here (it would later, in JSON.stringify or a recursive walk).
 */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (item === null || typeof item !== 'object') continue;
    if (depth > max) return true;
    for (const child of Array.isArray(item) ? item : Object.values(item)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}

/** A short description of a value for an error message (never the whole of a huge value). */
function describe(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    const text = typeof value === 'string' ? JSON.stringify(value) : String(value);
    return text.length > 60 ? `${text.slice(0, 60)}...` : text;
  }
  return Array.isArray(value) ? 'an array' : 'an object';
}
