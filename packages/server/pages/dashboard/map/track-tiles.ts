// A long history drawn from the server's track tiles (GET .../track-tiles/{z}/{x}/{y}, issue 32):
// a canvas per map tile, so the cost of a view grows with the tiles in view, not with the records
// in the range. Used instead of the /track line for a device with many records over a long range;
// a short range of the same device still gets the full line (trips, playback, gap bridges).
import { api } from '../base/api.js';
import { breaksOf, fetchGaps, type DeviceTrack } from './device-data.js';
import { placedBridges } from './gaps.js';
import type { Range } from '../base/range.js';
import { forgetBuilding, retryAfterMs, startBuilding, tilesBuilding } from './tiles-building.js';
import type { DeviceLayer } from './tracks.js';
import type { DeviceInfo } from '../device-info.js';
import type { Gap } from './gaps.js';

/** A device with more records than this is drawn from tiles over a range longer than LONG_RANGE_MS. */
export const LONG_HISTORY_RECORDS = 200_000;
const LONG_RANGE_MS = 2 * 86_400_000;
const HOUR_MS = 3_600_000;

/** A device as this module draws it: its info, its layer on the map, the track it holds. */
export type TiledDevice = { info: DeviceInfo; layer: DeviceLayer; colour: string; track: DeviceTrack | null };

/** Whether this device over this range is drawn from tiles. */
export function drawsFromTiles(info: DeviceInfo, range: Range): boolean {
  const records = Number(info.records);
  const long = range.from === null || (range.to ?? Date.now()) - range.from > LONG_RANGE_MS;
  return records > LONG_HISTORY_RECORDS && long;
}

/**
 * The range widened to whole hours (each tile is then read from the pyramid alone), and the
 * ledger's holes, which the tiles leave undrawn (breaks=from:to,...).
 */
function tileQuery(range: Range, gaps: Gap[]): string {
  const params = new URLSearchParams(breaksOf(gaps));
  if (range.from !== null) params.set('from', String(Math.floor(range.from / HOUR_MS) * HOUR_MS));
  if (range.to !== null) params.set('to', String(Math.ceil((range.to + 1) / HOUR_MS) * HOUR_MS - 1));
  const query = params.toString();
  return query ? '?' + query : '';
}

type TileOptions = L.GridLayerOptions & {
  base: string;
  query: string;
  deviceId: string;
  colour: string;
  alpha: number;
  onBuilding: (path: string, waitMs: number) => void;
};

/**
 * A tile's line segments as pixel corners, four numbers each (x1, y1, x2, y2). The tile route has
 * no reply schema yet: its one field is checked here, as the canvas must not draw what is not numbers.
 */
function segmentsOf(body: unknown): number[] {
  const segments = typeof body === 'object' && body !== null && 'segments' in body ? body.segments : null;
  if (!Array.isArray(segments) || !segments.every((n) => typeof n === 'number')) throw new Error('not a track tile');
  return segments;
}

/** Draws the segments on the tile's canvas, in the device's colour. */
function paint(tile: HTMLCanvasElement, segments: number[], options: TileOptions, ratio: number): void {
  const context = tile.getContext('2d');
  if (!context) throw new Error('no canvas');
  context.scale(ratio, ratio);
  context.strokeStyle = options.colour;
  context.lineWidth = 3;
  context.lineCap = 'round';
  context.globalAlpha = options.alpha;
  context.beginPath();
  // Pixel corners from the server; a line through the pixel's centre.
  for (let i = 0; i + 3 < segments.length; i += 4) {
    context.moveTo((segments[i] as number) + 0.5, (segments[i + 1] as number) + 0.5);
    context.lineTo((segments[i + 2] as number) + 0.5, (segments[i + 3] as number) + 0.5);
  }
  context.stroke();
}

class TrackTiles extends L.GridLayer {
  declare options: TileOptions;

  constructor(options: TileOptions) {
    super(options);
  }

  override createTile(coords: L.Coords, done: L.DoneCallback): HTMLElement {
    const tile = document.createElement('canvas');
    const ratio = window.devicePixelRatio || 1;
    const size = this.getTileSize();
    tile.width = size.x * ratio;
    tile.height = size.y * ratio;
    tile.className = 'track-tile';
    tile.setAttribute('data-device', this.options.deviceId);
    const path = `${this.options.base}/${coords.z}/${coords.x}/${coords.y}${this.options.query}`;
    api(path)
      .then((response) => {
        if (response.ok) return response.json() as Promise<unknown>;
        // The pyramid is being built: the device is drawn from its records meanwhile (tiles-building.ts).
        if (response.status === 503) this.options.onBuilding(path, retryAfterMs(response));
        return Promise.reject(new Error('HTTP ' + response.status));
      })
      .then((body) => {
        const segments = segmentsOf(body);
        paint(tile, segments, this.options, ratio);
        tile.setAttribute('data-segments', String(segments.length / 4));
        done(undefined, tile);
      })
      .catch((error: unknown) => {
        tile.setAttribute('data-error', error instanceof Error ? error.message : String(error));
        done(error instanceof Error ? error : new Error(String(error)), tile);
      });
    return tile;
  }
}

/**
 * Draws a device's track for the range from tiles when it is a long history (answers true), else
 * removes any tile layer it had (answers false: the caller draws the /track line). The device's
 * marker goes to its newest position. While its tiles answer 503 (being built) it answers false:
 * `redraw` draws the device again once they answer.
 */
export async function drawLongTrack(
  map: L.Map,
  device: TiledDevice,
  range: Range,
  redraw: () => void,
): Promise<boolean> {
  const layer = device.layer;
  const id = device.info.id;
  const long = drawsFromTiles(device.info, range);
  const gaps = long ? await fetchGaps(id) : [];
  const query = tileQuery(range, gaps);
  if (!long || !tilesBuilding(id, query)) forgetBuilding(id);
  const wanted = long && !tilesBuilding(id, query);
  if (layer.trackTiles && (!wanted || layer.trackTiles.options.query !== query)) {
    map.removeLayer(layer.trackTiles);
    layer.trackTiles = null;
  }
  if (!wanted) return false;
  layer.tracks.clearLayers();
  layer.trips = [];
  // The holes bridged dashed over the tiles, as on a line drawn from the records (gaps.ts).
  for (const bridge of placedBridges(gaps, range)) layer.addBridge(bridge);
  if (!layer.trackTiles) {
    layer.trackTiles = new TrackTiles({
      pane: 'overlayPane',
      base: '/api/dashboard/devices/' + encodeURIComponent(device.info.id) + '/track-tiles',
      query,
      deviceId: device.info.id,
      colour: device.colour,
      alpha: 0.85,
      updateWhenZooming: false,
      onBuilding: (probe, waitMs) => startBuilding({ id, label: device.info.name || id, query, probe, waitMs, redraw }),
    }).addTo(map);
  }
  const newest = device.info.lastPosition;
  if (newest) layer.placeLatest(newest, range);
  device.track = {
    deviceId: device.info.id,
    zoom: map.getZoom(),
    trips: [],
    newest: null,
    positions: Number(device.info.records),
    truncated: false,
    tiles: true,
  };
  return true;
}
