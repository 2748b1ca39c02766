// The floor a Node HTTP ingest service can reach: node:http, JSON.parse, the same rows as Waypost's
// (the device row upserted and its counters moved, the locations with the same columns, unique key
// and indexes) in one transaction per request, and nothing else: no framework, no validation
// beyond what a row needs, no security checks, no dedup report, no ledger. Issue 20 measures Waypost
// against it in the same run (bench/ingest.mjs).
import { createServer } from 'node:http';
import Database from 'better-sqlite3';
import pg from 'pg';

const SCHEMA = (t) => [
  `CREATE TABLE devices (id TEXT PRIMARY KEY, created_at ${t.bigint} NOT NULL, last_seen ${t.bigint},
    records ${t.bigint} NOT NULL DEFAULT 0, duplicates ${t.bigint} NOT NULL DEFAULT 0)`,
  `CREATE TABLE locations (id ${t.id}, device_id TEXT NOT NULL REFERENCES devices(id), uuid TEXT NOT NULL,
    recorded_at ${t.bigint} NOT NULL, latitude ${t.real}, longitude ${t.real}, received_at ${t.bigint} NOT NULL,
    record TEXT NOT NULL, event TEXT, sequence ${t.bigint}, CONSTRAINT minimal_device_uuid UNIQUE (device_id, uuid))`,
  `CREATE INDEX minimal_device_sequence ON locations (device_id, sequence) WHERE sequence IS NOT NULL`,
  `CREATE INDEX minimal_device_track ON locations (device_id, recorded_at, id, latitude, longitude)`,
  `CREATE INDEX minimal_device_event ON locations (device_id, event, recorded_at) WHERE event IS NOT NULL`,
];
const TYPES = {
  sqlite: { id: 'INTEGER PRIMARY KEY AUTOINCREMENT', bigint: 'INTEGER', real: 'REAL' },
  postgres: { id: 'BIGSERIAL PRIMARY KEY', bigint: 'BIGINT', real: 'DOUBLE PRECISION' },
};

/** `{ location: record | [records], device_id }`: the body the bench's devices send. */
function rowsOf(body, now) {
  const list = Array.isArray(body.location) ? body.location : [body.location];
  return list.map((r) => [
    body.device_id,
    r.uuid,
    Date.parse(r.timestamp),
    r.coords.latitude,
    r.coords.longitude,
    now,
    JSON.stringify(r),
    typeof r.event === 'string' ? r.event : null,
    Number.isSafeInteger(r.sequence) ? r.sequence : null,
  ]);
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString()));
    req.on('error', reject);
  });
}

function sqliteStore(file) {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  for (const statement of SCHEMA(TYPES.sqlite)) db.exec(statement);
  const device = db.prepare(`INSERT INTO devices (id, created_at) VALUES (?, ?) ON CONFLICT DO NOTHING`);
  const insert = db.prepare(
    `INSERT INTO locations (device_id, uuid, recorded_at, latitude, longitude, received_at, record, event, sequence)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
  );
  const totals = db.prepare(
    `UPDATE devices SET last_seen = ?, records = records + ?, duplicates = duplicates + ? WHERE id = ?`,
  );
  const ingest = db.transaction((id, rows, now) => {
    device.run(id, now);
    let stored = 0;
    for (const row of rows) stored += insert.run(...row).changes;
    totals.run(now, stored, rows.length - stored, id);
    return stored;
  });
  return { ingest: async (id, rows, now) => ingest(id, rows, now), close: async () => db.close() };
}

async function postgresStore(url, schema, poolSize) {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, options: `-c search_path=${schema}` });
  for (const statement of SCHEMA(TYPES.postgres)) await pool.query(statement);
  const ingest = async (id, rows, now) => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(`INSERT INTO devices (id, created_at) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [id, now]);
      const values = rows.map((_, i) => `(${Array.from({ length: 9 }, (_, j) => `$${i * 9 + j + 1}`).join(',')})`);
      const inserted = await client.query(
        `INSERT INTO locations (device_id, uuid, recorded_at, latitude, longitude, received_at, record, event, sequence)
         VALUES ${values.join(',')} ON CONFLICT DO NOTHING`,
        rows.flat(),
      );
      await client.query(
        `UPDATE devices SET last_seen = $1, records = records + $2, duplicates = duplicates + $3 WHERE id = $4`,
        [now, inserted.rowCount, rows.length - inserted.rowCount, id],
      );
      await client.query('COMMIT');
      return inserted.rowCount;
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    } finally {
      client.release();
    }
  };
  return { ingest, close: () => pool.end() };
}

/**
 * Starts the minimal service: `{ sqlite: FILE }` or `{ postgres: URL, schema, poolSize }`.
 * Resolves with `{ url, close() }`.
 */
export async function startMinimalIngestServer(options) {
  const store = options.sqlite
    ? sqliteStore(options.sqlite)
    : await postgresStore(options.postgres, options.schema, options.poolSize ?? 10);
  const server = createServer(async (req, res) => {
    try {
      const body = JSON.parse(await readBody(req));
      const now = Date.now();
      const rows = rowsOf(body, now);
      const stored = await store.ingest(body.device_id, rows, now);
      const reply = JSON.stringify({ success: true, stored, duplicates: rows.length - stored });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(reply) });
      res.end(reply);
    } catch (error) {
      res.writeHead(400, { 'content-type': 'text/plain' });
      res.end(String(error.message));
    }
  });
  server.keepAliveTimeout = 30_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await store.close();
    },
  };
}
