import { isoOrNull } from '../iso-time.js';
import type { LocationRow } from '../store/locations.js';
import { fieldNames, flattenRecord, type FlatValue } from './flatten-record.js';

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

/**
 * A record's value as a CSV cell: text a spreadsheet would run as a formula (= + - @ first) gets a
 * leading apostrophe; numbers (-73.5) are numbers and stay as they are.
 */
function csvValue(value: FlatValue | undefined): string {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') return String(value);
  return csvField(/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);
}

/** A name usable as an XML attribute value. */
const gpxField = (name: string, value: FlatValue): string =>
  `<waypost:field name="${xml(name)}">${xml(value === null ? '' : String(value))}</waypost:field>`;

const elevationOf = (fields: Map<string, FlatValue>): string => {
  const altitude = fields.get('coords.altitude') ?? fields.get('altitude');
  return typeof altitude === 'number' && Number.isFinite(altitude) ? `<ele>${altitude}</ele>` : '';
};

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
            // Every field the record carried, flat (coords.speed, battery.level, extras.*).
            properties: {
              ...Object.fromEntries(flattenRecord(parsedRecord(r.record))),
              uuid: r.uuid,
              timestamp: iso(r.recorded_at),
              received_at: iso(r.received_at),
              device_id: deviceId,
            },
          })),
        }),
      };
    case 'gpx': {
      // Elevation and time where GPX has them; every field of the record in the extensions.
      const points = positioned(rows)
        .map((r) => {
          const fields = flattenRecord(parsedRecord(r.record));
          const extensions = [...fields].map(([name, value]) => gpxField(name, value)).join('');
          return `      <trkpt lat="${r.latitude}" lon="${r.longitude}">${elevationOf(fields)}<time>${iso(r.recorded_at)}</time>${extensions ? `<extensions>${extensions}</extensions>` : ''}</trkpt>`;
        })
        .join('\n');
      return {
        type: 'application/gpx+xml; charset=utf-8',
        body: `<?xml version="1.0" encoding="UTF-8"?>
<gpx version="1.1" creator="Waypost" xmlns="http://www.topografix.com/GPX/1/1" xmlns:waypost="https://github.com/waypost/gpx/1">
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
      // The columns of every record (the union of their fields) after the stored ones.
      const flat = rows.map((r) => flattenRecord(parsedRecord(r.record)));
      const fixed = ['uuid', 'timestamp', 'latitude', 'longitude', 'received_at'];
      const names = fieldNames(flat).filter((name) => !fixed.includes(name));
      const lines = [[...fixed, ...names].map(csvField).join(',')];
      rows.forEach((r, i) => {
        const stored = [csvValue(r.uuid), iso(r.recorded_at), r.latitude ?? '', r.longitude ?? '', iso(r.received_at)];
        lines.push([...stored, ...names.map((name) => csvValue(flat[i]!.get(name)))].join(','));
      });
      return { type: 'text/csv; charset=utf-8', body: `${lines.join('\n')}\n` };
    }
  }
}
