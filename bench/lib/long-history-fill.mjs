// Fills a database with one device's long history, in bulk and straight into the tables (no HTTP):
// 50 million records would take hours through the upload route. The positions are those of the
// dashboard-track bench: one fix a second driving round a 2 km-radius loop near Munich for an hour,
// then half an hour parked (not recording), so the history has a trip break every hour. Records are
// small ('{}'): the track reads only the columns, and the disk the bench needs stays about 8 GB per
// database for 50 million records.
import Database from 'better-sqlite3';
import pg from 'pg';
import { MARK_EVERY_STORED_HOUR } from '../../packages/server/dist/track-tiles/schema.js';

export const DEVICE = 'bench-history';
export const START = Date.UTC(2020, 0, 1);
const TRIP_S = 3600;
const PAUSE_MS = 30 * 60_000;

/** The i-th fix: time, and a position on the loop (the same formula as the SQL below). */
export function fix(i) {
  const trip = Math.floor(i / TRIP_S);
  const t = START + i * 1000 + trip * PAUSE_MS;
  const angle = ((i % TRIP_S) / TRIP_S) * 2 * Math.PI + trip;
  return { t, lat: 48.1 + 0.018 * Math.sin(angle), lon: 11.5 + 0.027 * Math.cos(angle) };
}

/** The time of the newest of `records` fixes. */
export const lastTime = (records) => fix(records - 1).t;

const uuid = (i) => `r-${String(i).padStart(10, '0')}`; // zero-padded: the unique index grows at its end

/** SQLite: prepared single-row inserts, a transaction per 200,000, synchronous off while filling. */
export function fillSqlite(file, records, log) {
  const db = new Database(file);
  db.pragma('synchronous = OFF');
  db.prepare(`INSERT INTO devices (id, created_at, records) VALUES (?, ?, ?)`).run(DEVICE, START, records);
  const insert = db.prepare(
    `INSERT INTO locations (device_id, uuid, recorded_at, latitude, longitude, received_at, record) VALUES (?, ?, ?, ?, ?, ?, '{}')`,
  );
  const chunk = db.transaction((from, to) => {
    for (let i = from; i < to; i++) {
      const f = fix(i);
      insert.run(DEVICE, uuid(i), f.t, f.lat, f.lon, f.t);
    }
  });
  const CHUNK = 200_000;
  for (let i = 0; i < records; i += CHUNK) {
    chunk(i, Math.min(records, i + CHUNK));
    if ((i / CHUNK) % 25 === 0) log(`SQLite: ${i.toLocaleString('en')} records written`);
  }
  // Written past the server's statements, which mark the pyramid on SQLite: marked here as its start does.
  db.prepare(MARK_EVERY_STORED_HOUR).run();
  db.close();
}

/**
 * PostgreSQL: generate_series computes the rows in the server (no data crosses the wire), with the
 * track and uuid indexes dropped while filling and built once after (much faster than growing them
 * row by row), in statements of 5 million rows.
 */
export async function fillPostgres(url, schema, records, log) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`SET search_path = "${schema}"`);
    await client.query(`SET maintenance_work_mem = '512MB'`);
    await client.query(`INSERT INTO devices (id, created_at, records) VALUES ($1, $2, $3)`, [DEVICE, START, records]);
    await client.query(`ALTER TABLE locations DROP CONSTRAINT locations_device_uuid`);
    await client.query(`DROP INDEX locations_device_track`);
    const CHUNK = 5_000_000;
    for (let i = 0; i < records; i += CHUNK) {
      await client.query(
        `INSERT INTO locations (device_id, uuid, recorded_at, latitude, longitude, received_at, record)
         SELECT $1, 'r-' || lpad(i::text, 10, '0'), t, 48.1 + 0.018 * sin(a), 11.5 + 0.027 * cos(a), t, '{}'
         FROM (SELECT i, $2::bigint + i * 1000 + (i / ${TRIP_S}) * ${PAUSE_MS} AS t,
                      ((i % ${TRIP_S})::float8 / ${TRIP_S}) * 2 * pi() + (i / ${TRIP_S}) AS a
               FROM generate_series($3::bigint, $4::bigint) AS i) AS g`,
        [DEVICE, START, i, Math.min(records, i + CHUNK) - 1],
      );
      log(`PostgreSQL: ${Math.min(records, i + CHUNK).toLocaleString('en')} records written`);
    }
    await client.query(`ALTER TABLE locations ADD CONSTRAINT locations_device_uuid UNIQUE (device_id, uuid)`);
    await client.query(
      `CREATE INDEX locations_device_track ON locations (device_id, recorded_at, id, latitude, longitude)`,
    );
    // A history that grew over years has been vacuumed many times: its pages are all-visible, so the
    // track reads' index-only scans skip the heap. Right after a bulk fill they are not, and the
    // autovacuum the fill sets off would run during the first views.
    await client.query('VACUUM (ANALYZE) locations');
  } finally {
    await client.end();
  }
}
