import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropSchema, freshSchemaName, PG_URL } from '../helpers/backends.js';
import { buildServer } from '../helpers/spawn-server.js';
import { storedOnce } from './checks.js';
import { Fleet } from './fleet-sim.js';
import { DEPLOY, portOpen } from './services.js';

// Issue 30: a rolling restart behind HAProxy loses and refuses nothing. Two Waypost processes
// started as waypost.service starts them (its flags, --drain-seconds among them) behind HAProxy
// with docs/deploy/haproxy.cfg (its addresses moved to this machine's loopback), a fleet uploading
// through it; each process in turn gets SIGTERM, drains, exits and is started again.
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const CLI = join(ROOT, 'packages/cli/bin/waypost.js');
const TOKEN = 'drain-test-admin-token';
const SERVICE = readFileSync(join(DEPLOY, 'waypost.service'), 'utf8');
const DRAIN_MS = Number(/--drain-seconds (\d+)/.exec(SERVICE)![1]) * 1000;

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

interface Proc {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv = {}): Proc {
  const child = spawn(command, args, { env: { PATH: process.env['PATH'], ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString('utf8')).slice(-20_000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/**
 * Resolves with what `check` answers once it answers non-null; fails naming `what` after `ms`, with
 * `explain()` (what the processes and HAProxy said) when given.
 */
async function until<T>(what: string, ms: number, check: () => Promise<T | null>, explain?: () => string): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check().catch(() => null);
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms${explain ? `\n${explain()}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const health = (port: number) =>
  fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(2000) }).then((r) => r.status);

/** An upload sent straight to a process whose body is held back after its first bytes. */
function slowUpload(port: number, device: string): { finish: () => void; status: Promise<number> } {
  const body = Buffer.from(
    JSON.stringify({
      location: {
        uuid: `${device}-slow`,
        timestamp: '2026-01-01T00:00:00.000Z',
        coords: { latitude: 1, longitude: 2 },
      },
      device_id: device,
    }),
  );
  const req = request(`http://127.0.0.1:${port}/locations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-length': body.length },
  });
  const status = new Promise<number>((resolve, reject) => {
    req.once('response', (res) => (res.resume(), res.once('end', () => resolve(res.statusCode!))));
    req.once('error', reject);
  });
  req.write(body.subarray(0, 20));
  return { finish: () => req.end(body.subarray(20)), status };
}

describe('a rolling restart behind HAProxy (docs/deploy: haproxy.cfg, waypost.service --drain-seconds)', () => {
  const schema = freshSchemaName();
  const dir = mkdtempSync(join(tmpdir(), 'waypost-drain-'));
  const env = { DATABASE_URL: `${PG_URL}?schema=${schema}`, WAYPOST_ADMIN_TOKEN: TOKEN };
  const ports: Record<string, number> = {};
  const processes = new Map<string, Proc>();
  let haproxy: Proc;
  let lbPort = 0;

  async function boot(name: string): Promise<void> {
    const args = ['server', '--host', '127.0.0.1', '--port', String(ports[name]), '--trust-proxy'];
    args.push('--drain-seconds', String(DRAIN_MS / 1000));
    const proc = run(process.execPath, [CLI, ...args], env);
    processes.set(name, proc);
    await portOpen('127.0.0.1', ports[name]!, `waypost ${name}`, 30_000);
  }

  beforeAll(async () => {
    buildServer();
    for (const name of ['w1', 'w2']) ports[name] = await freePort();
    lbPort = await freePort();
    // haproxy.cfg as shipped, but on this machine's loopback, with the two processes as w1 and w2.
    const config = readFileSync(join(DEPLOY, 'haproxy.cfg'), 'utf8')
      .replace(/bind \S+/, `bind 127.0.0.1:${lbPort}`)
      .replace(/server w1 \S+/, `server w1 127.0.0.1:${ports['w1']}`)
      .replace(/server w2 \S+/, `server w2 127.0.0.1:${ports['w2']}`)
      .replace(/^\s*server w3 .*$/m, '');
    writeFileSync(join(dir, 'haproxy.cfg'), config);
    await boot('w1'); // the first migrates the schema
    await boot('w2');
    haproxy = run('/usr/sbin/haproxy', ['-db', '-f', join(dir, 'haproxy.cfg')]);
    await portOpen('127.0.0.1', lbPort, 'haproxy', 20_000);
  }, 120_000);

  afterAll(async () => {
    for (const proc of [...processes.values(), ...(haproxy ? [haproxy] : [])]) {
      proc.child.kill('SIGKILL');
      await proc.exited;
    }
    await dropSchema(schema);
    rmSync(dir, { recursive: true, force: true });
  });

  const outputs = () =>
    [...processes].map(([name, p]) => `--- ${name} ---\n${p.output().slice(-2000)}`).join('\n') +
    `\n--- haproxy ---\n${haproxy.output().slice(-2000)}`;

  it('answers every upload with 200: each process drains (503 on /health), finishes its upload in flight, exits 0', async () => {
    const fleet = new Fleet(`http://127.0.0.1:${lbPort}`, ['van-0', 'van-1', 'van-2', 'van-3', 'van-4', 'van-5']);
    const taken = (host: string) => fleet.attempts.filter((a) => a.host === host && a.outcome === '200').length;
    fleet.start();
    const slow: { name: string; status: Promise<number> }[] = [];
    try {
      // Both in rotation and taking uploads before anything stops. A minute: under a loaded suite
      // (load 5 on 2 cores) 30 s once passed with one of them not yet taking any.
      await until(
        'both processes take uploads',
        60_000,
        async () => (taken('w1') > 0 && taken('w2') > 0) || null,
        () => `uploads taken: w1 ${taken('w1')}, w2 ${taken('w2')}, attempts ${fleet.attempts.length}\n${outputs()}`,
      );
      for (const name of ['w1', 'w2']) {
        const proc = processes.get(name)!;
        const upload = slowUpload(ports[name]!, `slow-${name}`);
        proc.child.kill('SIGTERM');
        expect(await until(`${name}'s /health while draining`, 3000, async () => health(ports[name]!))).toBe(503);
        // Past the drain, while the process closes: the upload in flight is finished and answered.
        setTimeout(upload.finish, DRAIN_MS + 500);
        slow.push({ name, status: upload.status });
        expect(await proc.exited, `${name}'s exit\n${outputs()}`).toBe(0);
        expect(proc.output()).toContain('draining');
        const before = taken(name);
        await boot(name);
        await until(
          `HAProxy sends uploads to ${name} again`,
          20_000,
          async () => taken(name) > before || null,
          outputs,
        );
      }
    } finally {
      await fleet.stop();
    }
    for (const { name, status } of slow) expect(await status, `the upload in flight on ${name}`).toBe(200);
    const refused = fleet.attempts.filter((a) => a.outcome !== '200');
    expect(fleet.describe(refused), `uploads not answered 200\n${outputs()}`).toBe('');
    const sql = new pg.Client({ connectionString: PG_URL, options: `-c search_path=${schema}` });
    await sql.connect();
    try {
      expect((await storedOnce(sql, fleet)).join('\n')).toBe('');
      const slowStored = await sql.query(`SELECT device_id FROM locations WHERE device_id LIKE 'slow-%' ORDER BY 1`);
      expect(slowStored.rows.map((r) => r.device_id)).toEqual(['slow-w1', 'slow-w2']);
    } finally {
      await sql.end();
    }
  }, 180_000);
});
