// One round of bench/fleet-events.mjs's throughput load in this process, for measuring with a
// profiler: `valgrind --tool=callgrind` counts the server's instructions, which a busy machine
// does not move as it moves records/s. Run a round of N and one of 2N records and subtract: what
// is left is the cost of N records, start-up cancelled out.
//   node bench/lib/fleet-one-round.mjs <sqlite|postgres> <none|events> <batch> <records> [server dist]
// `events`: a webhook (a receiver in its own process) and the bench's 10 geofences; the round ends
// once every event is delivered. [server dist]: another build's packages/server/dist to compare
// with (an older commit's worktree), this one's by default. Under callgrind started with
// --instr-atstart=no, WAYPOST_CALLGRIND_TOGGLE=1 counts only the round (from the load's start until
// every event is delivered) via callgrind_control, so no subtraction is needed.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { GEOFENCES } from './fleet-geofences.mjs';
import { loadFromChild } from './ingest-load.mjs';
import { createSchema, dropSchema, PG_URL } from './pg-schema.mjs';
import { startReceiverProcess } from './webhook-receiver-process.mjs';

const [backend, mode, batch, records, dist] = process.argv.slice(2);
if (!['sqlite', 'postgres'].includes(backend) || !['none', 'events'].includes(mode) || !(Number(records) > 0)) {
  console.error(
    'usage: node bench/lib/fleet-one-round.mjs <sqlite|postgres> <none|events> <batch> <records> [server dist]',
  );
  process.exit(2);
}
const serverDist = dist ? resolve(dist) : new URL('../../packages/server/dist/', import.meta.url).pathname;
const { startServer } = await import(pathToFileURL(join(serverDist, 'index.js')).href);

let options;
let drop;
if (backend === 'sqlite') {
  const dir = mkdtempSync(join(tmpdir(), 'waypost-one-round-'));
  options = { database: join(dir, 'server.db') };
  drop = async () => rmSync(dir, { recursive: true, force: true });
} else {
  const schema = `bench_one_${process.pid}`;
  await createSchema(schema);
  options = { databaseUrl: PG_URL, schema };
  drop = () => dropSchema(schema);
}
const toggle = (on) => {
  if (process.env.WAYPOST_CALLGRIND_TOGGLE === '1')
    execFileSync('callgrind_control', ['-i', on ? 'on' : 'off', String(process.pid)], { stdio: 'ignore' });
};
const receiver = await startReceiverProcess();
const server = await startServer({ port: 0, adminToken: 'bench', ...options, rateLimit: 0, rateLimitPerAddress: 0 });
const admin = (path, body) =>
  fetch(server.url + path, {
    method: body ? 'POST' : 'GET',
    headers: { authorization: 'Bearer bench', ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
try {
  if (mode === 'events') {
    for (const geofence of GEOFENCES) await admin('/api/geofences', geofence);
    await admin('/api/webhooks', { url: receiver.url });
  }
  toggle(true);
  const cpu = process.cpuUsage();
  const { seconds, stored } = await loadFromChild({
    urls: [server.url],
    run: `one-${Date.now()}`,
    records: Number(records),
    batch: Number(batch),
    clients: 50,
  });
  // Every event delivered (bounded: two minutes), so its cost is counted.
  for (let waited = 0; ; waited += 50) {
    const sinks = await (await admin('/api/sinks')).json();
    if (sinks.every((sink) => sink.pending === 0)) break;
    if (waited > 120_000) throw new Error('events still waiting after two minutes');
    await new Promise((done) => setTimeout(done, 50));
  }
  const used = process.cpuUsage(cpu);
  toggle(false);
  const { received } = await receiver.stats();
  console.log(
    `fleet-one-round: ${backend} ${mode} batch ${batch}: stored ${stored} in ${seconds.toFixed(2)} s, ` +
      `${((used.user + used.system) / Number(records)).toFixed(1)} us CPU/record, ${received} events delivered`,
  );
} finally {
  await server.close();
  await receiver.close();
  await drop();
}
