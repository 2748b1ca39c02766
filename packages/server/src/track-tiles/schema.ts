/**
 * The track pyramid's tables (track-tiles/README in docs/track-tiles.md):
 * - track_tiles: one row per device, level, tile and time bucket: the deduplicated segments that
 *   bucket draws in that tile (segment keys as little-endian doubles). One index, by bucket then
 *   tile: a tile read seeks each of its buckets exactly, the builder reads a bucket's range (an
 *   index by tile first let PostgreSQL scan a whole tier's rows for a tile);
 * - track_tile_dirty: the buckets whose rows are stale, with a mark bumped at each change, so the
 *   builder clears only what it has seen.
 * The hour of every inserted or deleted position is marked, and the next hour (its first segment
 * starts from the fix before it): by triggers on locations on PostgreSQL, by the statements that
 * change positions on SQLite (sqliteMarksInTransactions). No write path (ingest, quarantine
 * release, retention, deletion by API) leaves the pyramid stale unnoticed. Existing positions are marked
 * when the table is created, and the builder fills the pyramid in the background.
 */
const HOUR_MS = 3_600_000;

interface SchemaTypes {
  id: string;
  bigint: string;
  blob: string;
  dialect: 'sqlite' | 'postgres';
}

const MARK = 'ON CONFLICT (device_id, tier, bucket) DO UPDATE SET mark = track_tile_dirty.mark + 1';

function sqliteTriggers(): string[] {
  return (['INSERT', 'DELETE'] as const).map((op) => {
    const row = op === 'INSERT' ? 'NEW' : 'OLD';
    return `CREATE TRIGGER locations_track_tiles_${op.toLowerCase()} AFTER ${op} ON locations
      WHEN ${row}.latitude IS NOT NULL BEGIN
        INSERT INTO track_tile_dirty (device_id, tier, bucket, mark)
        VALUES (${row}.device_id, 0, ${row}.recorded_at / ${HOUR_MS}, 1), (${row}.device_id, 0, ${row}.recorded_at / ${HOUR_MS} + 1, 1)
        ${MARK};
      END`;
  });
}

/** One statement-level trigger per statement on PostgreSQL (transition tables): one upsert per insert. */
function postgresTriggers(): string[] {
  return [
    `CREATE FUNCTION locations_track_tiles_mark() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       INSERT INTO track_tile_dirty (device_id, tier, bucket, mark)
       SELECT DISTINCT c.device_id, 0, c.recorded_at / ${HOUR_MS} + k.k, 1
       FROM changed c CROSS JOIN (VALUES (0), (1)) AS k(k) WHERE c.latitude IS NOT NULL
       ORDER BY 1, 3
       ${MARK};
       RETURN NULL;
     END $$`,
    `CREATE TRIGGER locations_track_tiles_insert AFTER INSERT ON locations
     REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION locations_track_tiles_mark()`,
    `CREATE TRIGGER locations_track_tiles_delete AFTER DELETE ON locations
     REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION locations_track_tiles_mark()`,
  ];
}

/** The schema as first made (later changes: the functions below, each its own migration). */
/**
 * Marks every hour holding a position stale (existing ones keep their mark): when the pyramid is
 * made, and after positions were written straight into the table in bulk (a bench's or a test's
 * fill), where no statement of the server marked them.
 */
export const MARK_EVERY_STORED_HOUR = `INSERT INTO track_tile_dirty (device_id, tier, bucket, mark)
  SELECT DISTINCT device_id, 0, recorded_at / ${HOUR_MS}, 1 FROM locations WHERE latitude IS NOT NULL
  ON CONFLICT (device_id, tier, bucket) DO NOTHING`;

export function trackTileSchema(t: SchemaTypes): string[] {
  return [
    `CREATE TABLE track_tiles (
      id ${t.id}, device_id TEXT NOT NULL, level INTEGER NOT NULL, x INTEGER NOT NULL, y INTEGER NOT NULL,
      tier INTEGER NOT NULL, bucket ${t.bigint} NOT NULL, segments ${t.blob} NOT NULL,
      CONSTRAINT track_tiles_key UNIQUE (device_id, tier, bucket, level, x, y))`,
    `CREATE TABLE track_tile_dirty (
      id ${t.id}, device_id TEXT NOT NULL, tier INTEGER NOT NULL, bucket ${t.bigint} NOT NULL, mark ${t.bigint} NOT NULL,
      CONSTRAINT track_tile_dirty_key UNIQUE (device_id, tier, bucket))`,
    MARK_EVERY_STORED_HOUR,
    ...(t.dialect === 'sqlite' ? sqliteTriggers() : postgresTriggers()),
  ];
}

/**
 * SQLite marks changed positions from the transaction that changes them (issue 32): a row trigger
 * ran its program for every position, costing batched ingest several microseconds a row and
 * halving retention's delete rate. The statements that insert or delete positions mark each
 * device's hours once per statement instead (markChangedHours: ingest/ingest-write-steps.ts for ingest,
 * retention-store.ts and store/anchor-reads.ts for deletes; deleting a whole device removes its
 * pyramid with it). PostgreSQL's statement triggers already mark once per statement and stay.
 */
export const sqliteMarksInTransactions = (t: SchemaTypes): string[] =>
  t.dialect === 'sqlite'
    ? [`DROP TRIGGER locations_track_tiles_insert`, `DROP TRIGGER locations_track_tiles_delete`]
    : [];

/** Whether this database's statements mark the pyramid themselves (no triggers on locations). */
export const marksInStatements = (db: { dialect: 'sqlite' | 'postgres' }): boolean => db.dialect === 'sqlite';

/** The upsert that marks `count` (device, hour) buckets of tier 0 stale, bumping marks already there. */
export const markHoursSql = (count: number): string =>
  `INSERT INTO track_tile_dirty (device_id, tier, bucket, mark) VALUES ${Array(count).fill('(?, 0, ?, 1)').join(', ')}
   ${MARK}`;
