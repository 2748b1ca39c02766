// What the map draws for a device, fetched for a time range: its track cut at the ledger's holes
// (breaks, so their edges stay drawn), and its events and geofences.
import { routeJson } from '../base/api.js';
import type { Reply } from '../api-types.js';
import type { Gap } from './gaps.js';
import type { Range } from '../base/range.js';

/** GET .../track: the trips ([lat, lon, t] each) and the newest fix; `tiles` marks a track the page draws from tiles (track-tiles.ts). */
export type DeviceTrack = Reply<'/api/dashboard/devices/{id}/track'> & { tiles?: boolean };
/** GET .../events: the device's recorded events (motion changes, geofence crossings...). */
export type RecordedEvent = Reply<'/api/dashboard/devices/{id}/events'>[number];
/** GET .../geofences: the circles a device was told to monitor. */
export type DeviceGeofence = Reply<'/api/dashboard/devices/{id}/geofences'>[number];

/** The range (and any extra parameters) as a query string. */
export function rangeQuery(range: Range, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams(extra);
  if (range.from !== null) params.set('from', String(range.from));
  if (range.to !== null) params.set('to', String(range.to));
  return params.toString();
}

export const devicePath = (id: string, what: string): string =>
  '/api/dashboard/devices/' + encodeURIComponent(id) + '/' + what;

/** The ledger's holes placed in time (GET .../gaps). */
export const fetchGaps = async (id: string): Promise<Gap[]> =>
  (await routeJson('/api/dashboard/devices/{id}/gaps', { method: 'get', params: { id } })).gaps;

/** The gaps as the track and tile routes take them: { breaks: 'from:to,...' }, or {} without any. */
export function breaksOf(gaps: Gap[]): { breaks?: string } {
  const breaks = gaps.filter((g) => g.from !== null && g.to !== null).map((g) => g.from + ':' + g.to);
  return breaks.length > 0 ? { breaks: breaks.join(',') } : {};
}

/** The track at this zoom, and the gaps it is cut at. */
export async function fetchTrack(id: string, range: Range, zoom: number): Promise<{ track: DeviceTrack; gaps: Gap[] }> {
  const gaps = await fetchGaps(id);
  const query = rangeQuery(range, { zoom: String(zoom), ...breaksOf(gaps) });
  return {
    track: await routeJson('/api/dashboard/devices/{id}/track', { method: 'get', params: { id }, query }),
    gaps,
  };
}

/** The device's recorded events in the range and its own geofences. */
export async function fetchOverlays(id: string, range: Range): Promise<[RecordedEvent[], DeviceGeofence[]]> {
  return Promise.all([
    routeJson('/api/dashboard/devices/{id}/events', { method: 'get', params: { id }, query: rangeQuery(range) }),
    routeJson('/api/dashboard/devices/{id}/geofences', { method: 'get', params: { id } }),
  ]);
}
