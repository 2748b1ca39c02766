// How values read in the sidebar and the records table. Unknown values show as an en dash.

const DASH = '–';

export function time(ms) {
  const date = new Date(ms);
  return Number.isFinite(date.getTime())
    ? date
        .toISOString()
        .replace('T', ' ')
        .replace(/\.\d+Z$/, 'Z')
    : DASH;
}

export function age(ms, now = Date.now()) {
  const seconds = Math.round((now - ms) / 1000);
  if (!Number.isFinite(seconds)) return DASH;
  if (seconds < 0) return 'in the future';
  if (seconds < 90) return seconds + ' s';
  if (seconds < 90 * 60) return Math.round(seconds / 60) + ' min';
  if (seconds < 36 * 3600) return Math.round(seconds / 3600) + ' h';
  return Math.round(seconds / 86400) + ' d';
}

export function coordinates(latitude, longitude) {
  if (typeof latitude !== 'number' || typeof longitude !== 'number') return DASH;
  return latitude.toFixed(5) + ', ' + longitude.toFixed(5);
}

export function measure(value, unit, digits = 1) {
  return typeof value === 'number' ? value.toFixed(digits) + ' ' + unit : DASH;
}

export function percent(fraction) {
  return typeof fraction === 'number' ? Math.round(fraction * 100) + ' %' : DASH;
}

export function yesNo(value) {
  return value === true ? 'yes' : value === false ? 'no' : DASH;
}

export function text(value) {
  return value === null || value === undefined || value === '' ? DASH : String(value);
}

export function duration(ms) {
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

export function distance(meters) {
  if (typeof meters !== 'number' || !Number.isFinite(meters)) return DASH;
  return meters >= 1000 ? (meters / 1000).toFixed(2) + ' km' : Math.round(meters) + ' m';
}

export function speed(mps) {
  return typeof mps === 'number' && Number.isFinite(mps) ? (mps * 3.6).toFixed(1) + ' km/h' : DASH;
}

/** The time of day only (HH:MM:SSZ), for the end of something whose start gives the date. */
export function clock(ms) {
  const full = time(ms);
  return full === DASH ? DASH : full.slice(11);
}

const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto', style: 'short' });

/** How long ago, in the browser's language ("2 min. ago", "now"). */
export function ago(ms, now = Date.now()) {
  const seconds = Math.round((ms - now) / 1000);
  if (!Number.isFinite(seconds)) return DASH;
  const abs = Math.abs(seconds);
  if (abs < 45) return relative.format(abs < 10 ? 0 : seconds, 'second');
  if (abs < 90 * 60) return relative.format(Math.round(seconds / 60), 'minute');
  if (abs < 36 * 3600) return relative.format(Math.round(seconds / 3600), 'hour');
  return relative.format(Math.round(seconds / 86400), 'day');
}
