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
