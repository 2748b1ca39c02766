/* global L, topojson */
// The basemap. With a tile server (--tile-url) it is real map tiles. Without one, it is Natural
// Earth's country borders and coastlines (world-atlas, served by this server) drawn as lines only:
// 1:50m data is kilometres off at city zoom, so land is never filled (no sea drawn over a city)
// and the outline is hidden past OUTLINE_MAX_ZOOM, where a note says how to get real tiles.
import { el } from './dom.js';
import { PHONE_QUERY } from './sheet.js';

export const OUTLINE_MAX_ZOOM = 8;

/**
 * The outline's lines, with the edges Natural Earth adds where polygons are cut (along the
 * antimeridian and around the south pole) left out: drawn, they are the bands across the map.
 */
export function outlineLines(world) {
  const mesh = topojson.mesh(world, world.objects.countries);
  const artificial = (a, b) =>
    (Math.abs(a[0]) > 179.9 && Math.abs(b[0]) > 179.9) || (a[1] < -84 && b[1] < -84) || Math.abs(a[0] - b[0]) > 180;
  const lines = [];
  for (const line of mesh.coordinates) {
    let current = [line[0]];
    for (let i = 1; i < line.length; i++) {
      if (artificial(line[i - 1], line[i])) {
        if (current.length > 1) lines.push(current);
        current = [line[i]];
      } else current.push(line[i]);
    }
    if (current.length > 1) lines.push(current);
  }
  return lines;
}

/** The note on the map: open on a wide screen, one line to tap open on a phone. */
function hintControl(summary, text) {
  const control = L.control({ position: 'bottomleft' });
  const open = !window.matchMedia(PHONE_QUERY).matches;
  control.onAdd = () =>
    el(
      'details',
      { id: 'basemap-hint', className: 'basemap-hint', open },
      el('summary', {}, summary),
      el('div', {}, ...text),
    );
  return control;
}

export async function addBasemap(map, config) {
  if (config.tileUrl) {
    const osm = /openstreetmap\.org/i.test(config.tileUrl);
    L.tileLayer(config.tileUrl, {
      maxZoom: 19,
      className: 'basemap-tiles',
      attribution: osm ? '© OpenStreetMap contributors' : '',
    }).addTo(map);
    map.getContainer().classList.add('has-tiles');
    return;
  }
  const hint = hintControl('Offline outline only', [
    'Coarse borders and coasts, hidden at city zoom. For a real map, start the server with ',
    el('code', {}, '--tile-url https://tile.openstreetmap.org/{z}/{x}/{y}.png'),
  ]).addTo(map);
  const hintElement = hint.getContainer();
  map.createPane('basemap');
  map.getPane('basemap').style.zIndex = 150; // under tiles (200) and tracks (400)
  const response = await fetch('/vendor/world-atlas/countries-50m.json');
  if (!response.ok) return;
  const world = await response.json();
  const renderer = L.canvas({ pane: 'basemap', padding: 0.2 });
  const outline = L.polyline(
    outlineLines(world).map((line) => line.map(([lon, lat]) => [lat, lon])),
    { pane: 'basemap', renderer, interactive: false, color: '#7b8a99', weight: 0.8, opacity: 0.9 },
  );
  const follow = () => {
    const coarse = map.getZoom() > OUTLINE_MAX_ZOOM;
    if (coarse) outline.remove();
    else if (!map.hasLayer(outline)) outline.addTo(map);
    hintElement.classList.toggle('coarse', coarse);
    map.getContainer().classList.toggle('outline-hidden', coarse);
  };
  map.on('zoomend', follow);
  follow();
}
