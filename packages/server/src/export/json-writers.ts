import type { ExportRow, TrackWriter } from './track-writer.js';
import { iso, positionOf } from './track-writer.js';

/** Items joined by commas between a head and a tail, written one by one. */
function jsonList(type: string, head: string, tail: string, item: (row: ExportRow) => unknown): TrackWriter {
  let first = true;
  return {
    type,
    head: () => head,
    row(row) {
      const value = item(row);
      if (value === undefined) return '';
      const text = `${first ? '' : ','}${JSON.stringify(value)}`;
      first = false;
      return text;
    },
    tail: () => tail,
  };
}

/** The API's own shape: the stored record as it was received (its -1s included), with the server's fields. */
export const jsonWriter = (): TrackWriter =>
  jsonList('application/json; charset=utf-8', '[', ']', ({ row, record }) => ({
    uuid: row.uuid,
    timestamp: iso(row.recorded_at),
    latitude: row.latitude,
    longitude: row.longitude,
    receivedAt: iso(row.received_at),
    // The recorded time was outside 2000..received + 1 day: the device's clock is suspect.
    ...(row.clock_suspect ? { clockSuspect: true } : {}),
    record,
  }));

/** RFC 7946 points, every field of the record as a property (coords.speed, battery.level, extras.*). */
export const geojsonWriter = (deviceId: string): TrackWriter =>
  jsonList(
    'application/geo+json; charset=utf-8',
    '{"type":"FeatureCollection","features":[',
    ']}',
    ({ row, fields }) => {
      const position = positionOf(row);
      if (!position) return undefined;
      return {
        type: 'Feature',
        geometry: { type: 'Point', coordinates: [position.longitude, position.latitude] },
        properties: {
          ...Object.fromEntries(fields),
          uuid: row.uuid,
          timestamp: iso(row.recorded_at),
          received_at: iso(row.received_at),
          device_id: deviceId,
        },
      };
    },
  );
