// The long-history bench's preparation, in a process of its own (bench/long-history.mjs): the
// history generated when no complete one is cached, the server's migrations, then the track pyramid
// built from the records (the first time: minutes, a heap of hundreds of MB). Run in the measuring
// process, the build left its heap behind to be collected during the views, and on PostgreSQL the
// autovacuum it set off ran beside them: the first run after a fill read up to twice the CPU of the
// next (session 22). The fill moved here too (session 23), so that nothing but the views runs where
// they are measured. PostgreSQL's new pyramid rows are vacuumed and analysed as autovacuum would.
// Progress goes to stderr.
//
//   node bench/lib/long-history-prepare.mjs sqlite RECORDS
//   node bench/lib/long-history-prepare.mjs postgres URL RECORDS
// Prints one JSON line: { file | schema, generatedMs, rebuilt, ms }.
import { performance } from 'node:perf_hooks';
import { openSqlite } from '../../packages/server/dist/db/sqlite.js';
import { openPostgres } from '../../packages/server/dist/db/postgres.js';
import { migrate } from '../../packages/server/dist/db/migrations.js';
import { buildTrackTiles } from '../../packages/server/dist/track-tiles/pyramid-builder.js';
import { cachedPostgres, cachedSqlite } from './long-history-cache.mjs';

const args = process.argv.slice(2);
const kind = args[0];
const progress = (line) => console.error(line);
const cached =
  kind === 'postgres'
    ? await cachedPostgres(args[1], Number(args[2]), progress)
    : await cachedSqlite(Number(args[1]), progress);
const db = kind === 'postgres' ? await openPostgres(args[1], cached.schema, 2) : openSqlite(cached.file);
try {
  await migrate(db); // marks every stored hour stale the first time (the upgrade path)
  const started = performance.now();
  const rebuilt = await buildTrackTiles(db, Date.now());
  const ms = performance.now() - started;
  if (rebuilt > 0 && kind === 'postgres') {
    for (const table of ['track_tiles', 'track_tile_dirty']) await db.query(`VACUUM (ANALYZE) ${table}`);
  }
  console.log(JSON.stringify({ ...cached, rebuilt, ms }));
} finally {
  await db.close();
}
