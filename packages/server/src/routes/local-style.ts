/**
 * The MapLibre style the dashboard draws a local vector MBTiles file with (--tiles): the
 * OpenMapTiles schema (what Planetiler, OpenMapTiles and OpenFreeMap's planet downloads hold),
 * drawn as land, water, parks, buildings, roads and borders. No labels: labels need glyph files
 * (fonts) that a tile file does not hold, and fetching them from a third party would defeat the
 * point of a local file. The tile URL is relative: the page makes it absolute (MapLibre needs that).
 */
export const LOCAL_STYLE_URL = '/map/style.json';

const road = (id: string, classes: string[], colour: string, width: [number, number, number, number]) => ({
  id,
  type: 'line',
  source: 'local',
  'source-layer': 'transportation',
  filter: ['in', ['get', 'class'], ['literal', classes]],
  layout: { 'line-cap': 'round', 'line-join': 'round' },
  paint: {
    'line-color': colour,
    'line-width': ['interpolate', ['exponential', 1.5], ['zoom'], width[0], width[1], width[2], width[3]],
  },
});

export function localStyle(tileUrl: string, maxzoom: number): Record<string, unknown> {
  return {
    version: 8,
    name: 'Waypost local tiles',
    sources: {
      local: { type: 'vector', tiles: [tileUrl], minzoom: 0, maxzoom },
    },
    layers: [
      { id: 'background', type: 'background', paint: { 'background-color': '#f2efe9' } },
      {
        id: 'landcover',
        type: 'fill',
        source: 'local',
        'source-layer': 'landcover',
        paint: { 'fill-color': ['match', ['get', 'class'], 'wood', '#d6e6c3', 'grass', '#e3edcf', '#e8eddc'] },
      },
      {
        id: 'park',
        type: 'fill',
        source: 'local',
        'source-layer': 'park',
        paint: { 'fill-color': '#d8e8c8' },
      },
      { id: 'water', type: 'fill', source: 'local', 'source-layer': 'water', paint: { 'fill-color': '#aad3df' } },
      {
        id: 'waterway',
        type: 'line',
        source: 'local',
        'source-layer': 'waterway',
        paint: { 'line-color': '#aad3df', 'line-width': 1.2 },
      },
      {
        id: 'building',
        type: 'fill',
        source: 'local',
        'source-layer': 'building',
        minzoom: 13,
        paint: { 'fill-color': '#dcd6cf', 'fill-outline-color': '#cbc4bb' },
      },
      road('road-minor', ['minor', 'service', 'track', 'path'], '#ffffff', [12, 0.5, 18, 8]),
      road('road-main', ['primary', 'secondary', 'tertiary', 'trunk'], '#fcd6a4', [8, 0.6, 18, 14]),
      road('road-motorway', ['motorway'], '#e892a2', [6, 0.8, 18, 16]),
      {
        id: 'boundary',
        type: 'line',
        source: 'local',
        'source-layer': 'boundary',
        filter: ['<=', ['get', 'admin_level'], 4],
        paint: { 'line-color': '#9e9cab', 'line-dasharray': [3, 2], 'line-width': 1 },
      },
    ],
  };
}
