// Issue 41: /metrics counts the whole fleet, so it answers the metrics token (what Prometheus is
// given) and the admin, nobody else; and docs/deploy/prometheus.yml, as documented, scrapes it.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asSession, loginAs } from './helpers/accounts.js';
import { call, register } from './helpers/anchor.js';
import { backends } from './helpers/backends.js';
import { record, startTestServer, type TestServer } from './helpers/client.js';

const METRICS_TOKEN = 'metrics-token-for-prometheus-41';
const PASSWORD = 'correct horse battery';
const PROMETHEUS_YML = fileURLToPath(new URL('../../../docs/deploy/prometheus.yml', import.meta.url));

describe.each(backends)('who reads /metrics on $name', (backend) => {
  let server: TestServer;
  let viewerCookie = '';
  let deviceToken = '';
  beforeAll(async () => {
    server = await startTestServer(backend, { metricsToken: METRICS_TOKEN });
    deviceToken = (await register(server, 'acme', 'phone-a')).accessToken;
    const created = await server.admin('/api/users', {
      method: 'POST',
      body: { name: 'acme-viewer', password: PASSWORD, role: 'viewer', orgs: ['acme'] },
    });
    expect(created.status).toBe(201);
    viewerCookie = (await loginAs(server, 'acme-viewer', PASSWORD)).cookie!;
  });
  afterAll(async () => server.stop());

  const metrics = (headers: Record<string, string>) => call(server, 'GET', '/metrics', { headers });
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  it('answers the metrics token and the admin token', async () => {
    for (const token of [METRICS_TOKEN, server.adminToken]) {
      const reply = await metrics(bearer(token));
      expect(reply.status).toBe(200);
      expect(String(reply.body)).toMatch(/^waypost_records_stored_total \d+$/m);
    }
  });

  it('refuses anyone else, a viewer limited to one org among them, with nothing of the fleet', async () => {
    const refusals = [
      { who: 'nobody', reply: await metrics({}), status: 401, code: 'METRICS_TOKEN_REQUIRED' },
      { who: 'a wrong token', reply: await metrics(bearer('not-the-metrics-token')), status: 401, code: 'WRONG_TOKEN' },
      { who: "acme's viewer", reply: await asSession(server, viewerCookie, 'GET', '/metrics'), status: 403 },
      { who: "acme's device", reply: await metrics(bearer(deviceToken)), status: 403, code: 'FORBIDDEN' },
    ];
    for (const { who, reply, status, code } of refusals) {
      expect(reply.status, who).toBe(status);
      expect(JSON.stringify(reply.body), who).not.toContain('waypost_');
      if (code) expect((reply.body as { code: string }).code, who).toBe(code);
    }
  });

  it('the metrics token opens nothing else', async () => {
    expect((await call(server, 'GET', '/api/devices', { token: METRICS_TOKEN })).status).toBe(401);
    expect((await call(server, 'GET', '/api/dashboard/devices', { token: METRICS_TOKEN })).status).toBe(401);
  });
});

async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

interface Target {
  labels: { job: string };
  health: 'up' | 'down' | 'unknown';
  lastError: string;
}

describe('Prometheus scraping with docs/deploy/prometheus.yml (Debian prometheus, on loopback)', () => {
  let server: TestServer;
  let prometheus: ChildProcess | undefined;
  let output = '';
  const dir = mkdtempSync(join(tmpdir(), 'waypost-prometheus-'));
  const config = join(dir, 'prometheus.yml');
  let promUrl = '';

  beforeAll(async () => {
    server = await startTestServer(backends[0]!, { metricsToken: METRICS_TOKEN });
    expect((await server.post('/locations', { location: [record('m1')], device_id: 'metered' })).status).toBe(200);
    writeFileSync(join(dir, 'waypost-metrics-token'), `${METRICS_TOKEN}\n`, { mode: 0o600 });
    const target = new URL(server.url).host;
    // As shipped, but its token file here, this server as its one target, and a scrape a second;
    // beside it, the same target scraped without the token.
    const documented = readFileSync(PROMETHEUS_YML, 'utf8')
      .replace(/credentials_file: \S+/, `credentials_file: ${join(dir, 'waypost-metrics-token')}`)
      .replace(/scrape_interval: \S+/, 'scrape_interval: 1s')
      .replace(/- targets:\n(\s+- \S+\n)+/, `- targets: ['${target}']\n`);
    expect(documented).toContain(`'${target}'`);
    writeFileSync(
      config,
      `${documented}  - job_name: without-token\n    static_configs:\n      - targets: ['${target}']\n`,
    );
  });
  afterAll(async () => {
    if (prometheus && prometheus.exitCode === null) {
      const exited = new Promise((resolve) => prometheus!.once('exit', resolve));
      prometheus.kill('SIGTERM');
      await exited;
    }
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('passes promtool check config', () => {
    const check = spawnSync('promtool', ['check', 'config', config], { encoding: 'utf8', timeout: 20_000 });
    expect(check.error, 'promtool could not run').toBeUndefined();
    expect(check.status, `${check.stdout}${check.stderr}`).toBe(0);
  });

  it('is scraped with the token (up, the counts stored), and refused without it (down, 401)', async () => {
    const port = await freePort();
    promUrl = `http://127.0.0.1:${port}`;
    prometheus = spawn(
      '/usr/bin/prometheus',
      [`--config.file=${config}`, `--storage.tsdb.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const keep = (chunk: Buffer) => (output = (output + chunk.toString('utf8')).slice(-4000));
    prometheus.stdout!.on('data', keep);
    prometheus.stderr!.on('data', keep);
    // Nothing to await in Prometheus but its API: ask until both targets were scraped (bounded).
    let targets: Target[] = [];
    for (let i = 0; i < 200; i++) {
      const answer = await fetch(`${promUrl}/api/v1/targets`)
        .then((r) => r.json() as Promise<{ data: { activeTargets: Target[] } }>)
        .catch(() => null);
      targets = answer?.data.activeTargets ?? [];
      if (targets.length === 2 && targets.every((t) => t.health !== 'unknown')) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const byJob = new Map(targets.map((t) => [t.labels.job, t]));
    expect(byJob.get('waypost')?.health, output).toBe('up');
    expect(byJob.get('without-token')?.health, output).toBe('down');
    expect(byJob.get('without-token')?.lastError).toMatch(/401/);
    const query = await fetch(`${promUrl}/api/v1/query?query=waypost_records_stored_total`);
    const { data } = (await query.json()) as {
      data: { result: { metric: { job: string }; value: [number, string] }[] };
    };
    expect(data.result.map((r) => [r.metric.job, r.value[1]])).toEqual([['waypost', '1']]);
  }, 60_000);
});
