import { DEFAULT_MAP_STYLE } from '../option-checks.js';
import { tileSource } from '../http/security-headers.js';
import { LOCAL_STYLE_URL } from './local-style.js';
import { LOCAL_TILE_URL, type TileFile } from './mbtiles.js';

/** What the dashboard draws under the tracks (GET /dashboard-config.json's `basemap`). */
export type Basemap =
  /** A MapLibre style (vector tiles), drawn with MapLibre GL; `attribution` as plain text. */
  | { kind: 'style'; style: string; attribution: string | null }
  /** A raster tile template drawn by Leaflet. */
  | { kind: 'raster'; tiles: string; attribution: string | null }
  /** Natural Earth's outline only (world-atlas, served by this server): no request to anyone. */
  | { kind: 'outline' };

/** The credit the default style's data needs (OpenFreeMap's terms; OpenMapTiles and OpenStreetMap). */
const DEFAULT_ATTRIBUTION = 'OpenFreeMap © OpenMapTiles Data from OpenStreetMap';
const OSM_ATTRIBUTION = '© OpenStreetMap contributors';

export interface BasemapOptions {
  mapStyle: string | null;
  tileUrl: string | null;
}

export function basemapOf(options: BasemapOptions, tiles: TileFile | null): Basemap {
  if (tiles?.vector) return { kind: 'style', style: LOCAL_STYLE_URL, attribution: OSM_ATTRIBUTION };
  if (tiles) return { kind: 'raster', tiles: LOCAL_TILE_URL, attribution: null };
  if (options.tileUrl) {
    const osm = /openstreetmap\.org/i.test(options.tileUrl);
    return { kind: 'raster', tiles: options.tileUrl, attribution: osm ? OSM_ATTRIBUTION : null };
  }
  if (options.mapStyle) {
    const attribution = options.mapStyle === DEFAULT_MAP_STYLE ? DEFAULT_ATTRIBUTION : null;
    return { kind: 'style', style: options.mapStyle, attribution };
  }
  return { kind: 'outline' };
}

/**
 * The origins the page may reach for its map (CSP img-src and connect-src): the style's origin
 * (its tiles, glyphs and sprites are expected there, as OpenFreeMap's are), or the raster
 * template's host. A local file or the outline needs none beyond this server.
 */
export function mapSourcesOf(options: BasemapOptions): string[] {
  if (options.tileUrl) {
    const source = tileSource(options.tileUrl);
    return source ? [source] : [];
  }
  if (options.mapStyle) return [new URL(options.mapStyle).origin];
  return [];
}
