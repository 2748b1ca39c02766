// What ingest COSTS, not how fast it ran: the CPU time of the server process (and, on PostgreSQL,
// of the database backends serving it) per record, under bench/ingest.mjs's load (50 devices on
// keep-alive connections from a separate load process, batches of 100 or one per request). On a
// machine shared with other work the rate of a run says more about the neighbours than about the
// code; the CPU a record takes does not depend on them (much), so builds are compared by it.
//
//   node bench/ingest-cost.mjs                         this checkout's server and the minimal service
//   WAYPOST_COST_SERVICES=head,base=/tmp/b/packages/server/dist/index.js node bench/ingest-cost.mjs
//                                                      two builds A/B (interleaved rounds, medians)
//   WAYPOST_COST_CASES=sqlite:100,postgres:1           some cases only (default: all four)
//   WAYPOST_COST_PROFILE=DIR                           also one V8 CPU profile per case and service,
//                                                      of the measured load only (scripts/ingest-stages.mjs
//                                                      reads them)
//   WAYPOST_BENCH_ROUNDS=3                             rounds (each service once per round)
//   WAYPOST_COST_RECORDS=20000                         records of a batch-100 case (batch 1: a quarter)
//
// Each service runs in its own process (bench/lib/cost-server-process.mjs) on a fresh database, is
// warmed up with a tenth of the load, then measured: process.cpuUsage() before and after the load,
// and the main thread's own CPU (/proc schedstat). The process's total counts V8's compiler and GC
// threads and SQLite's checkpoint thread too; on an idle two-core machine they run beside the main
// thread, whose time per record is then what bounds the rate (issue 43, load average 2-3: the
// one-record rate ratio to the minimal service, 0.91-1.12 in bench/ingest.mjs, sat nearer the main
// threads' ratio, 0.87-0.95, than the totals', 0.74-0.81). Short runs carry JIT warm-up:
// WAYPOST_COST_RECORDS=160000 for a steady state.
import { fork } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { backendCpuProbe } from './lib/backend-cpu.mjs';
import { warmedRun } from './lib/ingest-load.mjs';
import { createSchema, dropSchema, PG_URL } from './lib/pg-schema.mjs';

const CLIENTS = Number(process.env.WAYPOST_BENCH_CLIENTS ?? 50);
const ROUNDS = Number(process.env.WAYPOST_BENCH_ROUNDS ?? 3);
const PROFILE_DIR = process.env.WAYPOST_COST_PROFILE ? resolve(process.env.WAYPOST_COST_PROFILE) : null;
const RECORDS = Number(process.env.WAYPOST_COST_RECORDS ?? 20_000);
const CASES = (process.env.WAYPOST_COST_CASES ?? 'sqlite:100,sqlite:1,postgres:100,postgres:1').split(',').map((c) => {
  const [backend, batch] = c.split(':');
  // A case without a batch size (`minimal` is a service, not a case) would make a load of NaN-sized batches.
  if (!['sqlite', 'postgres'].includes(backend) || !(Number(batch) >= 1)) {
    throw new Error(`WAYPOST_COST_CASES: "${c}" is not database:batch (sqlite:100, postgres:1)`);
  }
  return { backend, batch: Number(batch), records: Number(batch) === 1 ? RECORDS / 4 : RECORDS };
});
/** `name` (this checkout's dist), `name=path/to/dist/index.js`, or `minimal`. */
const SERVICES = (process.env.WAYPOST_COST_SERVICES ?? 'waypost,minimal').split(',').map((spec) => {
  const [name, dist] = spec.split('=');
  return { name, dist: dist ? resolve(dist) : null, minimal: name === 'minimal' };
});
const POOL_SIZE = 10;
/** The load comes from one address at many times a device's rate: this measures ingest, not the limiter. */
const NO_RATE_LIMITS = { rateLimit: 0, rateLimitPerAddress: 0 };

function serviceProcess(service) {
  const env = { ...process.env };
  if (service.dist) env.WAYPOST_SERVER_DIST = service.dist;
  const child = fork(fileURLToPath(new URL('./lib/cost-server-process.mjs', import.meta.url)), {
    env,
    stdio: 'inherit',
    execArgv: process.env.WAYPOST_COST_EXEC_ARGV ? process.env.WAYPOST_COST_EXEC_ARGV.split(' ') : undefined,
  });
  const next = (key) =>
    new Promise((resolve, reject) => {
      const onMessage = (message) => {
        if (message && key in message) {
          child.off('message', onMessage);
          resolve(message[key]);
        }
      };
      child.on('message', onMessage);
      child.once('exit', (code) => reject(new Error(`service process exited (${code})`)));
    });
  const ask = (message, key) => (child.send(message), next(key));
  return {
    ready: next('ready'),
    start: (start) => ask({ start }, 'url'),
    /** `{ total, main }`: the process's CPU µs, and its main thread's (null where unknown). */
    cpuUs: () => ask('cpu', 'cpu'),
    profile: (what) => ask({ profile: what }, 'profiled'),
    close: () => ask('close', 'closed'),
  };
}

/** One service, one case, on a fresh database: CPU µs per record (server, database backends), records/s. */
async function measureOnce(service, { backend, batch, records }, round) {
  const tag = `cost_${process.pid}_${round}_${service.name.replace(/\W/g, '')}`;
  const schema = backend === 'postgres' ? tag : null;
  if (schema) await createSchema(schema);
  const databaseUrl = schema ? `${PG_URL}${PG_URL.includes('?') ? '&' : '?'}application_name=${tag}` : undefined;
  const proc = serviceProcess(service);
  const probe = schema ? await backendCpuProbe(PG_URL, tag) : null;
  try {
    await proc.ready;
    const url = await proc.start({
      service: service.minimal ? 'minimal' : 'waypost',
      databaseUrl,
      schema,
      options: { poolSize: POOL_SIZE, ...NO_RATE_LIMITS },
    });
    const run = `${tag}-${batch}`;
    let before;
    let dbBefore = 0;
    const { rate, loadUs } = await warmedRun({ urls: [url], run, records, batch, clients: CLIENTS }, async () => {
      if (PROFILE_DIR && round === 0) await proc.profile('start');
      before = await proc.cpuUs();
      dbBefore = probe ? await probe.cpuMs() : 0;
    });
    const after = await proc.cpuUs();
    const cpu = after.total - before.total;
    const main = before.main === null || after.main === null ? null : (after.main - before.main) / records;
    const db = probe ? ((await probe.cpuMs()) - dbBefore) * 1000 : 0;
    // The main thread by name; the others ranked by their CPU (their ids differ from round to round).
    const threads = {};
    const others = [];
    for (const [key, us] of Object.entries(after.threads ?? {})) {
      const spent = (us - (before.threads?.[key] ?? 0)) / records;
      if (key === 'main') threads.main = spent;
      else if (spent > 0.05) others.push(spent);
    }
    others.sort((a, b) => b - a).forEach((spent, i) => (threads[`other ${i + 1}`] = spent));
    if (PROFILE_DIR && round === 0) {
      mkdirSync(PROFILE_DIR, { recursive: true });
      const name = join(PROFILE_DIR, `${service.name}-${backend}-${batch}`);
      await proc.profile(`${name}.cpuprofile`);
      // What the profiled load cost, measured: scripts/ingest-stages.mjs splits it by the profile's shares.
      writeFileSync(`${name}.json`, JSON.stringify({ server: cpu / records, db: db / records, records }));
    }
    return { server: cpu / records, main, db: db / records, rate, load: loadUs, threads };
  } finally {
    await proc.close().catch(() => undefined);
    await probe?.close();
    if (schema) await dropSchema(schema);
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const fixed = (n) => n.toFixed(1).padStart(6);

async function main() {
  console.log(
    `ingest CPU per record, ${CLIENTS} devices, ${ROUNDS} interleaved rounds (medians); µs of CPU per record: ` +
      `server process [+ PostgreSQL backends]`,
  );
  for (const spec of CASES) {
    const results = new Map(SERVICES.map((s) => [s.name, []]));
    for (let round = 0; round < ROUNDS; round++) {
      // Alternate the order: a neighbour's burst does not always fall on the same service.
      const order = round % 2 === 0 ? SERVICES : [...SERVICES].reverse();
      for (const service of order) results.get(service.name).push(await measureOnce(service, spec, round));
    }
    const first = median(results.get(SERVICES[0].name).map((r) => r.server + r.db));
    for (const service of SERVICES) {
      const list = results.get(service.name);
      const server = median(list.map((r) => r.server));
      const db = median(list.map((r) => r.db));
      const total = median(list.map((r) => r.server + r.db));
      const rounds = list.map((r) => (r.server + r.db).toFixed(1)).join(' ');
      const mains = list.map((r) => r.main).filter((m) => m !== null);
      const firstMains = results
        .get(SERVICES[0].name)
        .map((r) => r.main)
        .filter((m) => m !== null);
      // The main thread's share, and its ratio to the first service's: what bounds the rate of one
      // process on an idle machine (cost-server-process.mjs), where the total overstates the gap.
      const mainPart =
        mains.length === list.length && firstMains.length === mains.length
          ? ` | main thread ${fixed(median(mains))} µs/record (${(median(mains) / median(firstMains)).toFixed(2)} of ${SERVICES[0].name}; rounds ${mains.map((m) => m.toFixed(1)).join(' ')})`
          : '';
      const rate = median(list.map((r) => r.rate));
      const load = median(list.map((r) => r.load));
      // The machine's cores the run kept busy: the server's process (and backends) and the load's.
      // Where they sum to about the machine's cores, the rate is bound by CPU per record in all.
      const cores = (us) => ((us * rate) / 1e6).toFixed(2);
      const names = [...new Set(list.flatMap((r) => Object.keys(r.threads)))].sort();
      const threadPart = names.map((n) => `${n} ${median(list.map((r) => r.threads[n] ?? 0)).toFixed(1)}`).join(', ');
      console.log(
        `${spec.backend.padEnd(8)} batch ${String(spec.batch).padStart(3)} ${service.name.padEnd(10)} ` +
          `server ${fixed(server)}${spec.backend === 'postgres' ? ` + db ${fixed(db)}` : ''} = ${fixed(total)} µs/record ` +
          `(${(total / first).toFixed(2)} of ${SERVICES[0].name}; rounds ${rounds}) ` +
          `| ${Math.round(rate)} records/s${mainPart} | load process ${fixed(load)} µs/record | ` +
          `cores busy: server ${cores(total)} + load ${cores(load)} of ${availableParallelism()}` +
          (threadPart ? ` | threads µs/record: ${threadPart}` : ''),
      );
    }
  }
}

await main();
