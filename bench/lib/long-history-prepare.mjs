// The long-history bench's upgrade path, in a process of its own (bench/long-history.mjs): the
// server's migrations, then the track pyramid built from the records (the first time: minutes, a
// heap of hundreds of MB). Run in the measuring process, that build left its heap behind to be
// collected during the views, and on PostgreSQL the autovacuum it set off ran beside them: the
// first run after a fill read up to twice the CPU of the next (session 22). Here the process ends
// with the build, and PostgreSQL's new pyramid rows are vacuumed and analysed as autovacuum would.
//
//   node bench/lib/long-history-prepare.mjs sqlite FILE
//   node bench/lib/long-history-prepare.mjs postgres URL SCHEMA
// Prints one JSON line: { rebuilt, ms }.
import { performance } from 'node:perf_hooks';
import { openSqlite } from '../../packages/server/dist/db/sqlite.js';
import { openPostgres } from '../../packages/server/dist/db/postgres.js';
import { migrate } from '../../packages/server/dist/db/migrations.js';
import { buildTrackTiles } from '../../packages/server/dist/track-tiles/pyramid-builder.js';

const [kind, where, schema] = process.argv.slice(2);
const db = kind === 'postgres' ? await openPostgres(where, schema, 2) : openSqlite(where);
try {
  await migrate(db); // marks every stored hour stale the first time (the upgrade path)
  const started = performance.now();
  const rebuilt = await buildTrackTiles(db, Date.now());
  const ms = performance.now() - started;
  if (rebuilt > 0 && kind === 'postgres') {
    for (const table of ['track_tiles', 'track_tile_dirty']) await db.query(`VACUUM (ANALYZE) ${table}`);
  }
  console.log(JSON.stringify({ rebuilt, ms }));
} finally {
  await db.close();
}
