/**
 * GPX's latitude, longitude and elevation are xsd:decimal: no exponent ("1e-7" is refused by a
 * schema validator), and libxml2's validator (xmllint) takes at most 24 digits. Positions are
 * written to 9 decimals (0.1 mm), elevations to 3 (1 mm), trailing zeros dropped, as other GPX
 * writers (gpsbabel) do.
 */
export const COORDINATE_DECIMALS = 9;
export const ELEVATION_DECIMALS = 3;

/** Elevations beyond this (m) are no place on or above the Earth: written as unknown. */
export const MAX_ELEVATION_M = 1e9;

/** A finite number as a plain decimal with at most `decimals` decimals: 1e-7 is "0.0000001". */
export function plainDecimal(value: number, decimals: number): string {
  const text = value.toFixed(decimals).replace(/\.?0+$/, '');
  return text === '-0' || text === '' ? '0' : text;
}

export const coordinateText = (value: number): string => plainDecimal(value, COORDINATE_DECIMALS);

/**
 * A longitude in GPX's range, -180 <= lon < 180, as text: 180 is the same meridian as -180, and a
 * longitude that rounds to 180 (179.9999999999) is moved after rounding.
 */
export function gpxLongitudeText(longitude: number): string {
  const rounded = Number(coordinateText(longitude));
  return coordinateText(rounded >= 180 ? rounded - 360 : rounded);
}

/** An elevation as text, or null when it cannot be one. */
export const elevationText = (value: number | null): string | null =>
  value === null || Math.abs(value) >= MAX_ELEVATION_M ? null : plainDecimal(value, ELEVATION_DECIMALS);
