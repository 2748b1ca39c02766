import { isoOrNull } from '../iso-time.js';
import type { LocationRow } from '../store/locations.js';

export const EXPORT_FORMATS = ['json', 'geojson', 'gpx', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Stored times are checked on the way in, but an old or hand-edited row must not fail an export. */
const iso = (ms: number): string => isoOrNull(Number(ms)) ?? '';

/** The stored record as JSON; a row that does not parse is shown as null rather than failing the export. */
function parsedRecord(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

const xml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** CSV field quoting of RFC 4180. */
const csvField = (value: string): string => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

const positioned = (rows: LocationRow[]) =>
  rows.filter(
    (r): r is LocationRow & { latitude: number; longitude: number } => r.latitude !== null && r.longitude !== null,
  );

export function renderTrack(
  format: ExportFormat,
  deviceId: string,
  rows: LocationRow[],
): { type: string; body: string } {
  switch (format) {
    case 'json':
      return {
        type: 'application/json; charset=utf-8',
        body: JSON.stringify(
          rows.map((r) => ({
            uuid: r.uuid,
            timestamp: iso(r.recorded_at),
            latitude: r.latitude,
            longitude: r.longitude,
            receivedAt: iso(r.received_at),
            // The recorded time was outside 2000..received + 1 day: the device's clock is suspect.
            ...(r.clock_suspect ? { clockSuspect: true } : {}),
            record: parsedRecord(r.record),
          })),
        ),
      };
    case 'geojson':
      return {
        type: 'application/geo+json; charset=utf-8',
        body: JSON.stringify({
          type: 'FeatureCollection',
          features: positioned(rows).map((r) => ({
            type: 'Feature',
            geometry: { type: 'Point', coordinates: [r.longitude, r.latitude] },
            properties: { uuid: r.uuid, timestamp: iso(r.recorded_at), device_id: deviceId },
          })),
        }),
      };
    case 'gpx': {
      const points = positioned(rows)
        .map((r) => `      <trkpt lat="${r.latitude}" lon="${r.longitude}"><time>${iso(r.recorded_at)}</time></trkpt>`)
        .join('\n');
      return {
        type: 'application/gpx+xml; charset=utf-8',
        body: `<?xml version="1.0" encoding="UTF-8"?>
<gpx version="1.1" creator="Waypost" xmlns="http://www.topografix.com/GPX/1/1">
  <trk>
    <name>${xml(deviceId)}</name>
    <trkseg>
${points}
    </trkseg>
  </trk>
</gpx>
`,
      };
    }
    case 'csv': {
      const lines = ['uuid,timestamp,latitude,longitude'];
      for (const r of rows) {
        lines.push([csvField(r.uuid), iso(r.recorded_at), r.latitude ?? '', r.longitude ?? ''].join(','));
      }
      return { type: 'text/csv; charset=utf-8', body: `${lines.join('\n')}\n` };
    }
  }
}
