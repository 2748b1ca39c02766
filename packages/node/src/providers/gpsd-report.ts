import type { LocationInput } from '@waypost/sdk/internal';

/**
 * gpsd's JSON protocol, one report per line. Only TPV (time-position-velocity) reports with a 2D
 * or 3D fix become fixes; everything else (VERSION, DEVICES, WATCH, SKY, a TPV without a fix, a
 * line that is not JSON) is ignored. Pure and total: never throws.
 */

/** gpsd's documented limit for one report is well under this. */
export const MAX_GPSD_LINE_CHARS = 16_384;

/** The command that makes gpsd stream reports as JSON on this connection. */
export const GPSD_WATCH_COMMAND = '?WATCH={"enable":true,"json":true}\n';

const finite = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const nonNegative = (value: unknown): number => (finite(value) && value >= 0 ? value : -1);

export function parseGpsdReport(line: string): LocationInput | null {
  let report: unknown;
  try {
    report = JSON.parse(line);
  } catch {
    return null;
  }
  if (report === null || typeof report !== 'object') return null;
  const tpv = report as Record<string, unknown>;
  if (tpv['class'] !== 'TPV' || !finite(tpv['mode']) || tpv['mode'] < 2) return null;
  const { lat, lon, time } = tpv;
  if (!finite(lat) || !finite(lon) || Math.abs(lat) > 90 || Math.abs(lon) > 180) return null;
  if (typeof time !== 'string' || !Number.isFinite(Date.parse(time))) return null;
  const is3d = tpv['mode'] === 3;
  // gpsd 3.20+ reports altMSL and altHAE; older versions only "alt" (which was MSL).
  const altitude = tpv['altMSL'] ?? tpv['alt'];
  // eph is gpsd's horizontal error estimate; without it, combine the per-axis estimates.
  const horizontal = finite(tpv['eph'])
    ? tpv['eph']
    : finite(tpv['epx']) && finite(tpv['epy'])
      ? Math.hypot(tpv['epx'], tpv['epy'])
      : -1;
  const track = tpv['track'];
  return {
    timestamp: time,
    coords: {
      latitude: lat,
      longitude: lon,
      accuracy: nonNegative(horizontal),
      speed: nonNegative(tpv['speed']),
      heading: finite(track) && track >= 0 && track < 360 ? track : -1,
      altitude: is3d && finite(altitude) ? altitude : -1,
      altitude_accuracy: is3d ? nonNegative(tpv['epv']) : -1,
    },
  };
}
