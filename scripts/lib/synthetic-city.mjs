// A small synthetic city as a vector MBTiles file (OpenMapTiles layer names: transportation,
// water, park, building), for screenshots of the dashboard's street map without any network: a
// street grid with avenues, a river and a park around a centre. Made with geojson-vt and vt-pbf
// (the server's dev dependencies); drawn by the server's built-in style for local vector files.
import Database from 'better-sqlite3';
import GeoJSONVT from 'geojson-vt';
import { fromGeojsonVt } from 'vt-pbf';
import { gzipSync } from 'node:zlib';

const line = (coordinates, props) => ({
  type: 'Feature',
  properties: props,
  geometry: { type: 'LineString', coordinates },
});
const polygon = (ring, props) => ({
  type: 'Feature',
  properties: props,
  geometry: { type: 'Polygon', coordinates: [ring] },
});
const box = (w, s, e, n) => [
  [w, s],
  [e, s],
  [e, n],
  [w, n],
  [w, s],
];

function cityLayers(lat, lon) {
  const span = 0.05;
  const streets = [];
  for (let i = -25; i <= 25; i++) {
    const cls = i % 5 === 0 ? 'primary' : 'minor';
    streets.push(
      line(
        [
          [lon - span, lat + i * 0.002],
          [lon + span, lat + i * 0.002],
        ],
        { class: cls },
      ),
    );
    streets.push(
      line(
        [
          [lon + i * 0.002, lat - span],
          [lon + i * 0.002, lat + span],
        ],
        { class: cls },
      ),
    );
  }
  streets.push(
    line(
      [
        [lon - span, lat - span * 0.6],
        [lon + span, lat + span * 0.3],
      ],
      { class: 'motorway' },
    ),
  );
  const river = polygon(
    [
      [lon - span, lat - 0.03],
      [lon + span, lat - 0.018],
      [lon + span, lat - 0.05],
      [lon - span, lat - 0.05],
      [lon - span, lat - 0.03],
    ],
    { class: 'river' },
  );
  const park = polygon(box(lon - 0.022, lat + 0.004, lon - 0.012, lat + 0.012), { class: 'park' });
  const buildings = [];
  for (let x = -10; x < 10; x++)
    for (let y = -6; y < 10; y++)
      if ((x * 7 + y * 3) % 4 !== 0)
        buildings.push(
          polygon(
            box(lon + x * 0.002 + 0.0003, lat + y * 0.002 + 0.0003, lon + x * 0.002 + 0.0016, lat + y * 0.002 + 0.0016),
            {},
          ),
        );
  return { transportation: streets, water: [river], park: [park], building: buildings };
}

/** Writes the city around (lat, lon) to `path`, zoom 10 to 16, tiles gzipped as Planetiler does. */
export function writeSyntheticCity(path, lat, lon) {
  const indexes = Object.entries(cityLayers(lat, lon)).map(([name, features]) => [
    name,
    new GeoJSONVT({ type: 'FeatureCollection', features }, { maxZoom: 16, indexMaxZoom: 10 }),
  ]);
  const db = new Database(path);
  db.exec(`CREATE TABLE metadata (name TEXT, value TEXT);
    CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB)`);
  db.prepare(`INSERT INTO metadata VALUES ('format', 'pbf'), ('maxzoom', '16')`).run();
  const insert = db.prepare(`INSERT INTO tiles VALUES (?, ?, ?, ?)`);
  const tileOf = (z, la, lo) => {
    const n = 2 ** z;
    const r = (la * Math.PI) / 180;
    return [
      Math.floor(((lo + 180) / 360) * n),
      Math.floor(((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * n),
    ];
  };
  for (let z = 0; z <= 16; z++) {
    const [x0, y0] = tileOf(z, lat + 0.05, lon - 0.05);
    const [x1, y1] = tileOf(z, lat - 0.05, lon + 0.05);
    for (let x = x0; x <= x1; x++)
      for (let y = y0; y <= y1; y++) {
        const layers = {};
        for (const [name, index] of indexes) {
          const tile = index.getTile(z, x, y);
          if (tile) layers[name] = tile;
        }
        if (Object.keys(layers).length > 0) insert.run(z, x, 2 ** z - 1 - y, gzipSync(fromGeojsonVt(layers)));
      }
  }
  db.close();
}
