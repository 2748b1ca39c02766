import type { FlatValue } from './flatten-record.js';
import type { ExportRow, TrackWriter } from './track-writer.js';
import { iso, positionOf } from './track-writer.js';
import { knownNumber } from './unknown-values.js';
import { coordinateText, elevationText, gpxLongitudeText } from './plain-decimal.js';
import { xmlAttribute, xmlText } from './xml-text.js';

const textOf = (value: FlatValue): string => (value === null ? '' : String(value));
const altitudeOf = (item: ExportRow): number | null => knownNumber(item.fields, 'coords.altitude', 'altitude');

/**
 * GPX 1.1: one track, one segment, a trkpt per positioned record with <ele> when the altitude is
 * known and every known field of the record in <extensions> (unknown ones are left out). Valid
 * against the GPX 1.1 schema whatever is stored: numbers as plain decimals, longitudes in
 * [-180, 180), no <time> for a time that cannot be written.
 */
export const gpxWriter = (deviceId: string): TrackWriter => ({
  type: 'application/gpx+xml; charset=utf-8',
  head: () =>
    `<?xml version="1.0" encoding="UTF-8"?>
<gpx version="1.1" creator="Waypost" xmlns="http://www.topografix.com/GPX/1/1" xmlns:waypost="https://github.com/waypost/gpx/1">
  <trk>
    <name>${xmlText(deviceId)}</name>
    <trkseg>
`,
  row(item) {
    const position = positionOf(item.row);
    if (!position) return '';
    const altitude = elevationText(altitudeOf(item));
    const time = iso(item.row.recorded_at);
    const extensions = [...item.fields]
      .filter(([, value]) => value !== null)
      .map(([name, value]) => `<waypost:field name="${xmlAttribute(name)}">${xmlText(textOf(value))}</waypost:field>`)
      .join('');
    const ele = altitude === null ? '' : `<ele>${altitude}</ele>`;
    return `      <trkpt lat="${coordinateText(position.latitude)}" lon="${gpxLongitudeText(position.longitude)}">${ele}${time ? `<time>${time}</time>` : ''}${extensions ? `<extensions>${extensions}</extensions>` : ''}</trkpt>\n`;
  },
  tail: () => `    </trkseg>
  </trk>
</gpx>
`,
});

/**
 * KML 2.2: a Placemark per positioned record (its uuid as name, its time as TimeStamp, the altitude
 * in the coordinates when known) with every known field of the record as ExtendedData.
 */
export const kmlWriter = (deviceId: string): TrackWriter => ({
  type: 'application/vnd.google-earth.kml+xml; charset=utf-8',
  head: () =>
    `<?xml version="1.0" encoding="UTF-8"?>
<kml xmlns="http://www.opengis.net/kml/2.2">
  <Document>
    <name>${xmlText(deviceId)}</name>
`,
  row(item) {
    const position = positionOf(item.row);
    if (!position) return '';
    const altitude = elevationText(altitudeOf(item));
    const coordinates = `${coordinateText(position.longitude)},${coordinateText(position.latitude)}${altitude === null ? '' : `,${altitude}`}`;
    const data = [...item.fields]
      .filter(([, value]) => value !== null)
      .map(([name, value]) => `<Data name="${xmlAttribute(name)}"><value>${xmlText(textOf(value))}</value></Data>`)
      .join('');
    return `    <Placemark><name>${xmlText(item.row.uuid)}</name><TimeStamp><when>${iso(item.row.recorded_at)}</when></TimeStamp>${data ? `<ExtendedData>${data}</ExtendedData>` : ''}<Point><coordinates>${coordinates}</coordinates></Point></Placemark>\n`;
  },
  tail: () => `  </Document>
</kml>
`,
});
