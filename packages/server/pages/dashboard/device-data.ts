// What the map draws for a device, fetched for a time range: its track cut at the ledger's holes
// (breaks, so their edges stay drawn), and its events and geofences.
import { apiJson, routeJson } from './api.js';
import type { Reply } from './api-types.js';
import type { Gap } from './gaps.js';
import type { Range } from './range.js';

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
export async function fetchTrack(
  id: string,
  range: Range,
  zoom: number,
): Promise<{ track: Reply<'/api/dashboard/devices/{id}/track'>; gaps: Gap[] }> {
  const gaps = await fetchGaps(id);
  const query = rangeQuery(range, { zoom: String(zoom), ...breaksOf(gaps) });
  return {
    track: await routeJson('/api/dashboard/devices/{id}/track', { method: 'get', params: { id }, query }),
    gaps,
  };
}

/** The device's recorded events in the range and its own geofences. */
export function fetchOverlays(id: string, range: Range): Promise<[unknown, unknown]> {
  return Promise.all([
    apiJson(devicePath(id, 'events') + '?' + rangeQuery(range)),
    apiJson(devicePath(id, 'geofences')),
  ]);
}
