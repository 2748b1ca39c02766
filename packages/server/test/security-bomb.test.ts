import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer, spawnServerScript, type ServerProcess } from './helpers/spawn-server.js';

const SCRIPT = fileURLToPath(new URL('./fixtures/sqlite-server-process.mjs', import.meta.url));
const MIB = 1024 * 1024;
const RSS_GROWTH_LIMIT = 50 * MIB;

/**
 * A gzip stream that inflates to 1 GiB in about 1 MB: 1024 gzip members of 1 MiB of zeros each
 * (gunzip reads concatenated members as one stream, as RFC 1952 allows).
 */
function gzipBomb(): Buffer {
  const member = gzipSync(Buffer.alloc(MIB), { level: 9 });
  return Buffer.concat(Array.from({ length: 1024 }, () => member));
}

/** The server's resident memory, from the kernel's view of its process. */
function rssOf(pid: number): number {
  const line = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))!;
  return Number(line[1]) * 1024;
}

describe('compressed bodies are inflated with a bound (gzip bombs)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'waypost-bomb-'));
  let server: ServerProcess;
  const bomb = gzipBomb();
  beforeAll(async () => {
    // The server runs as a child process from the built package, so its RSS is its own.
    buildServer();
    server = await spawnServerScript(SCRIPT, [join(dir, 'server.db'), '0']);
  });
  afterAll(() => {
    if (server?.child.exitCode === null) server.child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  const send = async (method: string, path: string, type: string, body: Buffer, encoding = 'gzip') => {
    const response = await fetch(server.url + path, {
      method,
      headers: { 'content-type': type, 'content-encoding': encoding, authorization: 'Bearer admin-secret' },
      body,
    });
    return { status: response.status, body: (await response.json()) as { code: string } };
  };

  const logForm = (log: Buffer) => {
    const form = new FormData();
    form.set('device_id', 'bomber');
    form.set('log', new Blob([log]), 'log.txt.gz');
    return form;
  };

  it('refuses a 1 GiB gzip bomb on every endpoint that takes a body with 413; RSS stays flat and /health answers', async () => {
    const json = 'application/json';
    const form = 'application/x-www-form-urlencoded';
    const targets: [string, string, string][] = [
      ['POST', '/locations', json],
      ['PUT', '/locations', json],
      ['PATCH', '/locations', json],
      ['POST', '/api/locations', json],
      ['POST', '/owntracks', json],
      ['POST', '/overland', json],
      ['POST', '/osmand', form],
      ['POST', '/osmand', json],
      ['PUT', '/osmand', form],
      ['POST', '/capacitor', json],
      ['POST', '/auth/register', json],
      ['POST', '/auth/register', form],
      ['POST', '/auth/refresh', form],
      ['POST', '/auth/revoke', json],
      ['POST', '/api/session', json],
      ['POST', '/api/devices/bomber/commands', json],
    ];
    // Warm up: the first requests grow the heap to its working size (a body limit's worth per
    // request in flight), whatever the body; the bombs must add nothing to that.
    await Promise.all(Array.from({ length: 3 }, () => send('POST', '/locations', json, bomb)));
    await fetch(`${server.url}/api/logs`, { method: 'POST', body: logForm(bomb) }).then((r) => r.text());
    const health = { ok: 0, failed: 0 };
    let peak = 0;
    let running = true;
    const baseline = rssOf(server.child.pid!);
    const watcher = (async () => {
      while (running) {
        peak = Math.max(peak, rssOf(server.child.pid!));
        const response = await fetch(`${server.url}/health`).catch(() => null);
        if (response?.status === 200) health.ok += 1;
        else health.failed += 1;
        await response?.text();
      }
    })();
    try {
      for (const [method, path, type] of targets) {
        expect(await send(method, path, type, bomb), `${method} ${path} ${type}`).toMatchObject({
          status: 413,
          body: { code: 'BODY_TOO_LARGE' },
        });
      }
      // Several at once, as an attacker would.
      const together = await Promise.all(Array.from({ length: 3 }, () => send('POST', '/locations', json, bomb)));
      expect(together.map((r) => r.status)).toEqual(Array(3).fill(413));
      // The log upload's gzipped part is checked as a stream too, against the log limit.
      const log = await fetch(`${server.url}/api/logs`, { method: 'POST', body: logForm(bomb) });
      expect([log.status, ((await log.json()) as { code: string }).code]).toEqual([413, 'BODY_TOO_LARGE']);
    } finally {
      running = false;
      await watcher;
    }
    peak = Math.max(peak, rssOf(server.child.pid!));
    if (process.env.WAYPOST_PRINT_RSS) console.log(`RSS baseline ${baseline / MIB} MiB, peak ${peak / MIB} MiB`);
    expect(peak - baseline).toBeLessThan(RSS_GROWTH_LIMIT);
    expect(health.failed).toBe(0);
    expect(health.ok).toBeGreaterThan(0);
    const devices = await fetch(`${server.url}/api/devices`, { headers: { authorization: 'Bearer admin-secret' } });
    expect(await devices.json()).toEqual([]);
  });

  it('refuses deflate and brotli bombs too, an unknown encoding and an encoded multipart body with 415', async () => {
    const zeros = Buffer.alloc(64 * MIB);
    const brotli = brotliCompressSync(zeros, { params: { [constants.BROTLI_PARAM_QUALITY]: 1 } });
    expect((await send('POST', '/locations', 'application/json', brotli, 'br')).status).toBe(413);
    const deflate = deflateSync(zeros, { level: 1 });
    expect((await send('POST', '/owntracks', 'application/json', deflate, 'deflate')).status).toBe(413);
    const small = gzipSync(
      JSON.stringify({
        location: { uuid: 'z1', timestamp: new Date().toISOString(), coords: { latitude: 1, longitude: 2 } },
        device_id: 'zipped',
      }),
    );
    expect((await send('POST', '/locations', 'application/json', small)).status).toBe(200);
    expect(await send('POST', '/locations', 'application/json', small, 'compress')).toMatchObject({
      status: 415,
      body: { code: 'UNSUPPORTED_ENCODING' },
    });
    const encodedForm = await fetch(`${server.url}/api/logs`, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=x', 'content-encoding': 'gzip' },
      body: gzipSync('--x--'),
    });
    expect(encodedForm.status).toBe(415);
    expect(await send('POST', '/locations', 'application/json', Buffer.from('not gzip at all'))).toMatchObject({
      status: 400,
      body: { code: 'INVALID_ENCODING' },
    });
  });
});
