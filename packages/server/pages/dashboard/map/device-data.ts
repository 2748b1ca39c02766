// What the map draws for a device, fetched for a time range: its track cut at the ledger's holes
// (breaks, so their edges stay drawn), and its events and geofences.
import { apiJson } from '../base/api.js';
import type { Range } from '../base/range.js';
import type { Gap, RecordedEvent, ServerGeofence, SharedTrack } from '../unschematized.js';

/**
 * GET /api/dashboard/devices/{id}/track: the trips ([lat, lon, t] each) and the newest fix, as the
 * share link's track has them, with how many positions the range holds (`truncated`: the newest
 * shown). The route has no reply schema yet: this is what the pages read of it, built from the
 * share's declared shape; `tiles` marks a track drawn from tiles (track-tiles.ts), no line of its own.
 */
export type DeviceTrack = Pick<SharedTrack, 'trips' | 'newest'> & {
  positions: number;
  truncated?: boolean;
  tiles?: boolean;
};

/** GET /api/dashboard/devices/{id}/geofences: the circles a device was told to monitor. */
export type DeviceGeofence = Pick<ServerGeofence, 'identifier' | 'latitude' | 'longitude' | 'radius'>;

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
  ((await apiJson(devicePath(id, 'gaps'))) as { gaps: Gap[] }).gaps;

/** The gaps as the track and tile routes take them: { breaks: 'from:to,...' }, or {} without any. */
export function breaksOf(gaps: Gap[]): { breaks?: string } {
  const breaks = gaps.filter((g) => g.from !== null && g.to !== null).map((g) => g.from + ':' + g.to);
  return breaks.length > 0 ? { breaks: breaks.join(',') } : {};
}

/** The track at this zoom, and the gaps it is cut at. */
export async function fetchTrack(id: string, range: Range, zoom: number): Promise<{ track: DeviceTrack; gaps: Gap[] }> {
  const gaps = await fetchGaps(id);
  const query = rangeQuery(range, { zoom: String(zoom), ...breaksOf(gaps) });
  return { track: (await apiJson(devicePath(id, 'track') + '?' + query)) as DeviceTrack, gaps };
}

/** The device's recorded events in the range and its own geofences. */
export async function fetchOverlays(id: string, range: Range): Promise<[RecordedEvent[], DeviceGeofence[]]> {
  const [events, geofences] = await Promise.all([
    apiJson(devicePath(id, 'events') + '?' + rangeQuery(range)),
    apiJson(devicePath(id, 'geofences')),
  ]);
  return [events as RecordedEvent[], geofences as DeviceGeofence[]];
}
