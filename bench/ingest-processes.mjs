// Scale-out (issue 20): how ingest grows from 1 to 2 server processes on one PostgreSQL. Each
// server runs in a process of its own (bench/lib/server-process.mjs), the fleet's load in another
// (device i uploads to process i % P), batches of 100 and one record per request, ROUNDS
// interleaved rounds, medians. A report, not a target: this machine has 2 cores, shared by the
// servers, the load process and PostgreSQL. Run after `npm run build`.
import { storedRate } from './lib/ingest-load.mjs';
import { createSchema, dropSchema, PG_URL } from './lib/pg-schema.mjs';
import { startServerProcess } from './lib/server-process-client.mjs';

const CLIENTS = 50;
const ROUNDS = Number(process.env.WAYPOST_BENCH_ROUNDS ?? 3);
const CASES = [
  { batch: 100, records: 40_000 },
  { batch: 1, records: 10_000 },
];

async function rate(processes, spec, run) {
  const schema = `bench_scale_${process.pid}_${Date.now()}`;
  await createSchema(schema);
  const servers = Array.from({ length: processes }, () =>
    startServerProcess({ databaseUrl: PG_URL, schema, rateLimit: 0, rateLimitPerAddress: 0 }),
  );
  try {
    const urls = await Promise.all(servers.map((s) => s.start()));
    return await storedRate({ urls, run, records: spec.records, batch: spec.batch, clients: CLIENTS });
  } finally {
    await Promise.all(servers.map((s) => s.close()));
    await dropSchema(schema);
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

console.log(`ingest scale-out on one PostgreSQL: ${CLIENTS} devices, 1 vs 2 server processes, ${ROUNDS} rounds each`);
for (const spec of CASES) {
  const one = [];
  const two = [];
  for (let i = 0; i < ROUNDS; i++) {
    one.push(await rate(1, spec, `scale-${spec.batch}-${Date.now()}-1`));
    two.push(await rate(2, spec, `scale-${spec.batch}-${Date.now()}-2`));
  }
  const [r1, r2] = [median(one), median(two)];
  console.log(
    `batch ${String(spec.batch).padStart(3)}: 1 process ${Math.round(r1)} records/s | 2 processes ${Math.round(r2)} records/s | x${(r2 / r1).toFixed(2)}`,
  );
}
process.exit(0);
