// How values read in the sidebar and the records table. Unknown values show as an en dash.
// Times and units follow the settings (settings.js): local time or UTC, metric or imperial.
import { settings } from './settings.js';

const DASH = '–';

const pad = (n: number): string => String(n).padStart(2, '0');
/** The formatters of the browser's language in its time zone, made once (Intl is slow to build). */
const LOCAL = {
  full: new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' }),
  clock: new Intl.DateTimeFormat(undefined, { timeStyle: 'medium' }),
  day: new Intl.DateTimeFormat(undefined, { dateStyle: 'short' }),
};
const utc = () => settings().timeZone === 'utc';

/** A moment: in the browser's time zone and language, or "2024-05-01 10:00:00 UTC" (the setting). */
export function time(ms: number): string {
  const date = new Date(ms);
  if (!Number.isFinite(date.getTime())) return DASH;
  if (utc())
    return date
      .toISOString()
      .replace('T', ' ')
      .replace(/\.\d+Z$/, ' UTC');
  return LOCAL.full.format(date);
}

/** Whether two moments fall on one calendar day where they are shown. */
export function sameDay(a: number, b: number): boolean {
  if (utc()) return new Date(a).toISOString().slice(0, 10) === new Date(b).toISOString().slice(0, 10);
  return LOCAL.day.format(new Date(a)) === LOCAL.day.format(new Date(b));
}

export function age(ms: number, now = Date.now()): string {
  const seconds = Math.round((now - ms) / 1000);
  if (!Number.isFinite(seconds)) return DASH;
  if (seconds < 0) return 'in the future';
  if (seconds < 90) return seconds + ' s';
  if (seconds < 90 * 60) return Math.round(seconds / 60) + ' min';
  if (seconds < 36 * 3600) return Math.round(seconds / 3600) + ' h';
  return Math.round(seconds / 86400) + ' d';
}

export function coordinates(latitude: unknown, longitude: unknown): string {
  if (typeof latitude !== 'number' || typeof longitude !== 'number') return DASH;
  return latitude.toFixed(5) + ', ' + longitude.toFixed(5);
}

export function measure(value: unknown, unit: string, digits = 1): string {
  return typeof value === 'number' ? value.toFixed(digits) + ' ' + unit : DASH;
}

export function percent(fraction: unknown): string {
  return typeof fraction === 'number' ? Math.round(fraction * 100) + ' %' : DASH;
}

export function yesNo(value: unknown): string {
  return value === true ? 'yes' : value === false ? 'no' : DASH;
}

export function text(value: unknown): string {
  return value === null || value === undefined || value === '' ? DASH : String(value);
}

export function duration(ms: unknown): string {
  if (typeof ms !== 'number' || !Number.isFinite(ms)) return DASH;
  const seconds = Math.round(ms / 1000);
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return h > 0
    ? h + ' h ' + String(m).padStart(2, '0') + ' min'
    : m > 0
      ? m + ' min ' + String(s).padStart(2, '0') + ' s'
      : s + ' s';
}

const imperial = () => settings().units === 'imperial';
const FEET_PER_METRE = 3.28084;
const METRES_PER_MILE = 1609.344;

/** A distance: "812 m" or "1.53 km"; "2,664 ft" or "0.95 mi" in imperial units. */
export function distance(meters: unknown): string {
  if (typeof meters !== 'number' || !Number.isFinite(meters)) return DASH;
  if (imperial())
    return meters >= METRES_PER_MILE / 4
      ? (meters / METRES_PER_MILE).toFixed(2) + ' mi'
      : Math.round(meters * FEET_PER_METRE) + ' ft';
  return meters >= 1000 ? (meters / 1000).toFixed(2) + ' km' : Math.round(meters) + ' m';
}

/** A short length (an accuracy, a radius): metres or feet, never converted to km or miles. */
export function length(meters: unknown): string {
  if (typeof meters !== 'number' || !Number.isFinite(meters)) return DASH;
  return imperial() ? Math.round(meters * FEET_PER_METRE) + ' ft' : Math.round(meters) + ' m';
}

/** A speed from m/s: km/h or mph. */
export function speed(mps: unknown): string {
  if (typeof mps !== 'number' || !Number.isFinite(mps)) return DASH;
  return imperial() ? ((mps * 3600) / METRES_PER_MILE).toFixed(1) + ' mph' : (mps * 3.6).toFixed(1) + ' km/h';
}

/** The time of day only, for the end of something whose start gives the date. */
export function clock(ms: number): string {
  const date = new Date(ms);
  if (!Number.isFinite(date.getTime())) return DASH;
  if (utc())
    return pad(date.getUTCHours()) + ':' + pad(date.getUTCMinutes()) + ':' + pad(date.getUTCSeconds()) + ' UTC';
  return LOCAL.clock.format(date);
}

const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto', style: 'short' });

/** How long ago, in the browser's language ("2 min. ago", "now"). */
export function ago(ms: number, now = Date.now()): string {
  const seconds = Math.round((ms - now) / 1000);
  if (!Number.isFinite(seconds)) return DASH;
  const abs = Math.abs(seconds);
  if (abs < 45) return relative.format(abs < 10 ? 0 : seconds, 'second');
  if (abs < 90 * 60) return relative.format(Math.round(seconds / 60), 'minute');
  if (abs < 36 * 3600) return relative.format(Math.round(seconds / 3600), 'hour');
  return relative.format(Math.round(seconds / 86400), 'day');
}
