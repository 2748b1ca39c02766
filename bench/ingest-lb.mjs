// Issue 30: ingest through HAProxy (docs/deploy/haproxy.cfg, its bind and server lines pointed at
// this machine) with 1, 2 and 3 Waypost server processes on one PostgreSQL, the fleet's load
// (50 keep-alive devices) from a process of its own. Besides records/s, the CPU each part used
// (from /proc: the server processes, HAProxy, every postgres process, the whole machine) per
// record stored, and from those per-record costs the throughput expected on 8 and 32 cores:
//   records/s = cores x 0.8 / (server + PostgreSQL + HAProxy CPU-seconds per record)
// (the load generator runs elsewhere in a real deployment; linear in cores while no single lock
// or disk saturates: group commit amortises PostgreSQL's WAL flush over the batch in flight).
// A report, not a target. Run as root or with haproxy installed, after `npm run build`.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { storedRate } from './lib/ingest-load.mjs';
import { createSchema, dropSchema, PG_URL } from './lib/pg-schema.mjs';
import { startServerProcess } from './lib/server-process-client.mjs';

const CLIENTS = 50;
const CASES = [
  { batch: 100, records: 40_000 },
  { batch: 1, records: 8_000 },
];
const TICKS = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim());

/** CPU seconds a process has used (user + system), 0 once it is gone. */
function cpuOf(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS;
  } catch {
    return 0;
  }
}
/** Every postgres process's CPU seconds by pid, and its command line (which names its client's port). */
function postgresProcesses() {
  const byPid = new Map();
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() !== 'postgres') continue;
      byPid.set(pid, { cpu: cpuOf(pid), cmdline: readFileSync(`/proc/${pid}/cmdline`, 'utf8') });
    } catch {
      // gone
    }
  }
  return byPid;
}
/**
 * The PostgreSQL backends serving these processes (the database is shared with other jobs on
 * this machine): those whose client port is one of theirs, from `ss`.
 */
function backendsOf(pids) {
  const ports = new Set();
  for (const line of execFileSync('ss', ['-tnpH', 'dport', '=', ':5432']).toString().split('\n')) {
    if (!pids.some((pid) => line.includes(`pid=${pid},`))) continue;
    const local = line.trim().split(/\s+/)[3];
    if (local) ports.add(local.slice(local.lastIndexOf(':') + 1));
  }
  const backends = new Map();
  for (const [pid, p] of postgresProcesses()) {
    const port = /\((\d+)\)/.exec(p.cmdline)?.[1];
    if (port && ports.has(port)) backends.set(pid, p.cpu);
  }
  return backends;
}
/** The machine's busy CPU seconds (all cores). */
function machineBusy() {
  const [, user, nice, system, , , irq, softirq, steal] = readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]
    .split(/\s+/)
    .map(Number);
  return (user + nice + system + irq + softirq + steal) / TICKS;
}

const freePort = () =>
  new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

async function startHaproxy(dir, urls) {
  const port = await freePort();
  const servers = urls.map((url, i) => `    server w${i + 1} ${new URL(url).host} check`).join('\n');
  const config = readFileSync(new URL('../docs/deploy/haproxy.cfg', import.meta.url), 'utf8')
    .replace(/bind \S+/, `bind 127.0.0.1:${port}`)
    .replace(/( {4}server w\d .*\n?)+/, `${servers}\n`);
  const file = join(dir, 'haproxy.cfg');
  writeFileSync(file, config);
  // Its log goes to /dev/log as deployed; where nothing listens there it says so on stderr, ignored.
  const child = spawn('haproxy', ['-db', '-f', file], { stdio: 'ignore' });
  // Ready once every server has passed its first checks (rise 2, inter 1s).
  for (let i = 0; i < 100; i++) {
    const open = await new Promise((resolve) => {
      const socket = net.connect({ host: '127.0.0.1', port }, () => (socket.destroy(), resolve(true)));
      socket.on('error', () => resolve(false));
    });
    if (open) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await new Promise((resolve) => setTimeout(resolve, 2500));
  return { child, url: `http://127.0.0.1:${port}` };
}

async function measure(processes, spec) {
  const schema = `bench_lb_${process.pid}_${Date.now()}`;
  await createSchema(schema);
  const dir = mkdtempSync(join(tmpdir(), 'waypost-bench-lb-'));
  const servers = Array.from({ length: processes }, () =>
    startServerProcess({ databaseUrl: PG_URL, schema, rateLimit: 0, rateLimitPerAddress: 0 }),
  );
  let haproxy;
  try {
    const urls = await Promise.all(servers.map((s) => s.start()));
    haproxy = await startHaproxy(dir, urls);
    const before = {
      servers: servers.map((s) => cpuOf(s.pid)),
      haproxy: cpuOf(haproxy.child.pid),
      pg: postgresProcesses(),
      busy: machineBusy(),
    };
    const started = process.hrtime.bigint();
    const rate = await storedRate({
      urls: [haproxy.url],
      run: `lb-${processes}-${spec.batch}-${Date.now()}`,
      records: spec.records,
      batch: spec.batch,
      clients: CLIENTS,
    });
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const server = servers.reduce((sum, s, i) => sum + cpuOf(s.pid) - before.servers[i], 0);
    let pg = 0;
    for (const [pid, cpu] of backendsOf(servers.map((s) => s.pid))) pg += cpu - (before.pg.get(pid)?.cpu ?? 0);
    const lb = cpuOf(haproxy.child.pid) - before.haproxy;
    const busy = machineBusy() - before.busy;
    return { rate, seconds, server, pg, lb, busy, records: spec.records };
  } finally {
    haproxy?.child.kill();
    await Promise.all(servers.map((s) => s.close()));
    await dropSchema(schema);
    rmSync(dir, { recursive: true, force: true });
  }
}

const cores = cpus().length;
const us = (seconds, records) => Math.round((seconds / records) * 1e6);
console.log(`ingest through HAProxy on one PostgreSQL: ${CLIENTS} devices, ${cores} cores (${cpus()[0].model})`);
for (const spec of CASES) {
  for (const processes of [1, 2, 3]) {
    const m = await measure(processes, spec);
    const [s, p, h] = [us(m.server, m.records), us(m.pg, m.records), us(m.lb, m.records)];
    // The rest: the load generator, WAL writer and checkpointer, and every other job on the machine.
    const other = us(m.busy - m.server - m.pg - m.lb, m.records);
    const perRecord = (m.server + m.pg + m.lb) / m.records;
    // 0.8: the share of the cores usable before latency climbs (BENCHMARKS.md states the model).
    const expected = (n) => Math.round((n * 0.8) / perRecord);
    console.log(
      `batch ${String(spec.batch).padStart(3)}, ${processes} process${processes > 1 ? 'es' : '  '}: ${Math.round(m.rate)} records/s | CPU per record: server ${s} us, PostgreSQL ${p} us, HAProxy ${h} us, rest (load generator, WAL writer, other jobs) ${other} us | machine busy ${Math.round((100 * m.busy) / (m.seconds * cores))} % | expected: 8 cores ${expected(8)}/s, 32 cores ${expected(32)}/s`,
    );
  }
}
process.exit(0);
