import { XMLParser } from 'fast-xml-parser';
import { distanceMeters, type LocationInput } from '@waypost/sdk/internal';
import { ProviderError } from './provider-error.js';

/** A GPX file is read whole; a bound keeps a wrong path (a disk image, a log) from exhausting memory. */
export const MAX_GPX_BYTES = 64 * 1024 * 1024;

/** Nominal one-sigma range error to turn a point's <hdop>/<vdop> into metres (see nmea-epoch.ts). */
const UERE_M = 5;

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  // No entity expansion at all: a GPX file has no use for it and it is the classic XML bomb.
  processEntities: false,
  parseTagValue: false,
  isArray: (name) => name === 'trk' || name === 'trkseg' || name === 'trkpt',
});

type Node = Record<string, unknown>;

const asNumber = (value: unknown): number | null => {
  if (typeof value !== 'string' || value.trim() === '') return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
};

function bearingDegrees(from: { latitude: number; longitude: number }, to: { latitude: number; longitude: number }) {
  const rad = Math.PI / 180;
  const dLon = (to.longitude - from.longitude) * rad;
  const [lat1, lat2] = [from.latitude * rad, to.latitude * rad];
  const y = Math.sin(dLon) * Math.cos(lat2);
  const x = Math.cos(lat1) * Math.sin(lat2) - Math.sin(lat1) * Math.cos(lat2) * Math.cos(dLon);
  return ((Math.atan2(y, x) / rad + 360) % 360) % 360;
}

const round = (n: number, places: number) => Math.round(n * 10 ** places) / 10 ** places;

/**
 * The track points of every track and segment, in file order, as recordLocation() input. Speed
 * and heading come from GPX 1.0's <speed>/<course> when present, else from the previous point of
 * the same segment; accuracy from <hdop>/<vdop>. Points without valid coordinates are skipped.
 */
export function parseGpxTrack(xml: string): LocationInput[] {
  let doc: Node;
  try {
    doc = parser.parse(xml, true) as Node;
  } catch (error) {
    throw new ProviderError('SOURCE_INVALID', `not a GPX file: ${(error as Error).message}`);
  }
  const gpx = doc['gpx'] as Node | undefined;
  if (!gpx || typeof gpx !== 'object') throw new ProviderError('SOURCE_INVALID', 'not a GPX file: no <gpx> element');
  const fixes: LocationInput[] = [];
  for (const trk of (gpx['trk'] as Node[] | undefined) ?? []) {
    for (const seg of (trk['trkseg'] as Node[] | undefined) ?? []) {
      let previous: { latitude: number; longitude: number; time: number | null } | null = null;
      for (const pt of (seg['trkpt'] as Node[] | undefined) ?? []) {
        const latitude = asNumber(pt['@lat']);
        const longitude = asNumber(pt['@lon']);
        if (latitude === null || longitude === null || Math.abs(latitude) > 90 || Math.abs(longitude) > 180) continue;
        const timeText = typeof pt['time'] === 'string' ? pt['time'] : undefined;
        const time = timeText !== undefined && Number.isFinite(Date.parse(timeText)) ? Date.parse(timeText) : null;
        const here = { latitude, longitude };
        let speed = asNumber(pt['speed']) ?? -1;
        let heading = asNumber(pt['course']) ?? -1;
        if (previous && previous.time !== null && time !== null && time > previous.time) {
          const meters = distanceMeters(previous, here);
          if (speed < 0) speed = round(meters / ((time - previous.time) / 1000), 2);
          if (heading < 0 && meters > 0) heading = round(bearingDegrees(previous, here), 1);
        }
        const hdop = asNumber(pt['hdop']);
        const vdop = asNumber(pt['vdop']);
        const ele = asNumber(pt['ele']);
        fixes.push({
          ...(time !== null ? { timestamp: time } : {}),
          coords: {
            latitude,
            longitude,
            accuracy: hdop !== null && hdop >= 0 ? round(hdop * UERE_M, 2) : -1,
            speed: speed >= 0 ? speed : -1,
            heading: heading >= 0 && heading < 360 ? heading : -1,
            altitude: ele ?? -1,
            altitude_accuracy: vdop !== null && vdop >= 0 && ele !== null ? round(vdop * UERE_M, 2) : -1,
          },
        });
        previous = { ...here, time };
      }
    }
  }
  return fixes;
}
