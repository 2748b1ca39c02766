// The basemap. By default a street map: a MapLibre style (OpenFreeMap's, --map-style another, or a
// local vector MBTiles file) drawn by basemap-gl.js; or raster tiles (--tile-url, a raster --tiles
// file). With --map-style none, or when the street map cannot load (said on the map), it is Natural
// Earth's country borders and coastlines (world-atlas, served by this server) drawn as lines only:
// 1:50m data is kilometres off at city zoom, so land is never filled (no sea drawn over a city)
// and the outline is hidden past OUTLINE_MAX_ZOOM, where a note says how to get real tiles.
import { addVectorBasemap } from './basemap-gl.js';
import { el } from '../base/dom.js';
import { PHONE_QUERY } from '../base/sheet.js';

export const OUTLINE_MAX_ZOOM = 8;

/** [lon, lat], as GeoJSON and TopoJSON give positions. */
type Position = [number, number];
/**
 * topojson-client, loaded as a global script (vendor/topojson-client): the one function used here.
 * Its world is Natural Earth's TopoJSON (world-atlas), passed through as read.
 */
declare const topojson: {
  mesh(topology: unknown, object: unknown): { coordinates: Position[][] };
};
type World = { objects: { countries: unknown } };

/** The basemap as /dashboard-config.json names it. */
export type Basemap =
  | { kind: 'outline' }
  | { kind: 'raster'; tiles: string; attribution?: string | null }
  | { kind: 'style'; style: string; attribution?: string | null };

/**
 * The outline's lines, with the edges Natural Earth adds where polygons are cut (along the
 * antimeridian and around the south pole) left out: drawn, they are the bands across the map.
 */
export function outlineLines(world: World): Position[][] {
  const mesh = topojson.mesh(world, world.objects.countries);
  const artificial = (a: Position, b: Position): boolean =>
    (Math.abs(a[0]) > 179.9 && Math.abs(b[0]) > 179.9) || (a[1] < -84 && b[1] < -84) || Math.abs(a[0] - b[0]) > 180;
  const lines: Position[][] = [];
  for (const line of mesh.coordinates) {
    const [start, ...rest] = line;
    if (!start) continue;
    let current: Position[] = [start];
    let previous = start;
    for (const point of rest) {
      if (artificial(previous, point)) {
        if (current.length > 1) lines.push(current);
        current = [point];
      } else current.push(point);
      previous = point;
    }
    if (current.length > 1) lines.push(current);
  }
  return lines;
}

/** The note on the map: open on a wide screen, one line to tap open on a phone. */
function hintControl(summary: string, text: (string | Node)[], className = ''): L.Control {
  const control = new L.Control({ position: 'bottomleft' }); // what L.control() makes
  const open = !window.matchMedia(PHONE_QUERY).matches;
  control.onAdd = () =>
    el(
      'details',
      { id: 'basemap-hint', className: ('basemap-hint ' + className).trim(), open },
      el('summary', {}, summary),
      el('div', {}, ...text),
    );
  return control;
}

/** Real tiles drawn by Leaflet: a raster template, or this server's own raster file. */
function addRaster(map: L.Map, basemap: Extract<Basemap, { kind: 'raster' }>): void {
  L.tileLayer(basemap.tiles, {
    maxZoom: 19,
    className: 'basemap-tiles',
    attribution: basemap.attribution ? basemap.attribution.replace(/[&<>]/g, (c) => `&#${c.charCodeAt(0)};`) : '',
  }).addTo(map);
  map.getContainer().classList.add('has-tiles');
}

/** What the note says over the outline: why there is no street map, and (to the operator) how to get one. */
function outlineNote(failure: string | null, operator: boolean): L.Control | null {
  if (failure) {
    const text: (string | Node)[] = [
      'The street map could not be loaded (' + failure + '): showing the offline outline.',
    ];
    if (operator)
      text.push(' For a map without the network, start the server with ', el('code', {}, '--tiles FILE.mbtiles'));
    return hintControl('Street map unavailable', text, 'basemap-failed');
  }
  // An anonymous visitor (a share link) cannot start the server: no advice for them.
  if (!operator) return null;
  return hintControl('Offline outline only', [
    'Coarse borders and coasts, hidden at city zoom (the server runs with ',
    el('code', {}, '--map-style none'),
    '). For a street map, drop that option, or give ',
    el('code', {}, '--tiles FILE.mbtiles'),
    ' or ',
    el('code', {}, '--tile-url URL'),
    '.',
  ]);
}

/**
 * The basemap the server names in /dashboard-config.json. `operator`: the dashboard (hints about
 * server options); false on a share link's page.
 */
export async function addBasemap(
  map: L.Map,
  config: { basemap?: Basemap | null } | null | undefined,
  { operator = true }: { operator?: boolean } = {},
): Promise<void> {
  const basemap: Basemap = config?.basemap || { kind: 'outline' };
  if (basemap.kind === 'raster') return addRaster(map, basemap);
  let failure: string | null = null;
  if (basemap.kind === 'style') {
    try {
      await addVectorBasemap(map, basemap.style, basemap.attribution);
      return;
    } catch (error) {
      // A MapLibre failure may be an Error or an event object with a message.
      const message = typeof error === 'object' && error !== null ? (error as { message?: unknown }).message : null;
      failure = message ? String(message) : String(error);
    }
  }
  await addOutline(map, outlineNote(failure, operator));
}

async function addOutline(map: L.Map, note: L.Control | null): Promise<void> {
  const hintElement = note ? note.addTo(map).getContainer() : null;
  map.createPane('basemap');
  const pane = map.getPane('basemap');
  if (pane) pane.style.zIndex = '150'; // under tiles (200) and tracks (400)
  const response = await fetch('/vendor/world-atlas/countries-50m.json');
  if (!response.ok) return;
  const world = (await response.json()) as World;
  const renderer = L.canvas({ pane: 'basemap', padding: 0.2 });
  const outline = L.polyline(
    outlineLines(world).map((line) => line.map(([lon, lat]): L.LatLngTuple => [lat, lon])),
    { pane: 'basemap', renderer, interactive: false, color: '#7b8a99', weight: 0.8, opacity: 0.9 },
  );
  const follow = () => {
    const coarse = map.getZoom() > OUTLINE_MAX_ZOOM;
    if (coarse) outline.remove();
    else if (!map.hasLayer(outline)) outline.addTo(map);
    if (hintElement) hintElement.classList.toggle('coarse', coarse);
    map.getContainer().classList.toggle('outline-hidden', coarse);
  };
  map.on('zoomend', follow);
  follow();
}
