// `waypost server` keeps who it is between restarts (issue 17): a generated admin token is kept
// beside the SQLite database, owner-only, and said where; a stale token is told it is wrong, with
// the same status on every mount of the admin and anchor read APIs.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { startServer } from '@waypost/server';
import { dropSchema, freshSchemaName, PG_URL } from '../../server/test/helpers/backends.js';
import { BIN } from './support/agent-process.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'waypost-server-identity-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** `waypost server` as a child process until it prints its admin token; stopped with SIGTERM. */
async function serverProcess(database: string) {
  // Without the caller's WAYPOST_ADMIN_TOKEN: the token under test is the generated, kept one.
  const { WAYPOST_ADMIN_TOKEN: _given, ...env } = process.env;
  const child = spawn(process.execPath, [BIN, 'server', '--port', '0', '--database', database], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  });
  const exited = once(child, 'exit');
  onTestFinished(async () => {
    if (child.exitCode === null) child.kill('SIGKILL');
    await exited;
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', () => /^dashboard: /m.test(out) && resolve());
    child.once('exit', (code) => reject(new Error(`server exited ${code}: ${out}`)));
  });
  const [, url] = /^url: (\S+)$/m.exec(out)!;
  const [, token, keptIn] = /^admin token: (\S+) \(kept in (.+)\)$/m.exec(out)!;
  const stop = async () => {
    child.kill('SIGTERM');
    expect(await exited).toEqual([0, null]);
  };
  return { url: url!, token: token!, keptIn: keptIn!, stop };
}

describe('waypost server: a stable admin token', () => {
  it('is generated once, kept owner-only beside the database, and the same after a restart', async () => {
    const database = join(dir, 'server.db');
    const first = await serverProcess(database);
    expect(first.keptIn).toBe(`${database}.admin-token`);
    expect(statSync(first.keptIn).mode & 0o777).toBe(0o600);
    await first.stop();
    const second = await serverProcess(database);
    expect(second.token).toBe(first.token);
    const devices = await fetch(`${second.url}/api/devices`, { headers: { authorization: `Bearer ${first.token}` } });
    expect(devices.status).toBe(200);
    await second.stop();
  });

  it('a stale, an empty and a missing token get 401 on every mount; the stale one hears it is wrong', async () => {
    const server = await serverProcess(join(dir, 'server.db'));
    for (const mount of ['/api', '/api/jwt', '/api/site']) {
      const answers = await Promise.all(
        [undefined, 'Bearer ', 'Bearer yesterdays-admin-token'].map(async (authorization) => {
          const response = await fetch(`${server.url}${mount}/devices`, {
            headers: authorization === undefined ? {} : { authorization },
          });
          return { status: response.status, body: (await response.json()) as { code: string; error: string } };
        }),
      );
      expect(answers.map((a) => a.status)).toEqual([401, 401, 401]);
      expect(answers[2]!.body).toMatchObject({
        code: 'WRONG_TOKEN',
        error: expect.stringContaining("not this server's admin token"),
      });
      expect(answers[0]!.body.code).not.toBe('WRONG_TOKEN');
    }
    await server.stop();
  });

  it('on PostgreSQL, is kept in the database: every process sharing it has the same one', async () => {
    const schema = freshSchemaName();
    onTestFinished(() => dropSchema(schema));
    const [a, b] = await Promise.all([
      startServer({ port: 0, databaseUrl: PG_URL, schema }),
      startServer({ port: 0, databaseUrl: PG_URL, schema }),
    ]);
    onTestFinished(async () => {
      await a.close();
      await b.close();
    });
    expect(a.adminToken).toBe(b.adminToken);
    expect(a.adminToken.length).toBeGreaterThanOrEqual(32);
    expect(a.adminTokenKeptIn).toMatch(/settings table/);
  });
});
