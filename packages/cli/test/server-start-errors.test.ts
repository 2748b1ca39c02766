import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { startServer } from '@waypost/server';
import { freePort } from './support/free-port.js';
import { runCli } from './support/run-cli.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'waypost-server-errors-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The environment of the test run without the variables under test. */
function envWith(extra: Record<string, string>): NodeJS.ProcessEnv {
  const { DATABASE_URL: _url, WAYPOST_ADMIN_TOKEN: _token, ...env } = process.env;
  return { ...env, ...extra };
}

const serve = (env: Record<string, string>, ...flags: string[]) =>
  runCli(['server', '--port', '0', '--database', join(dir, 'server.db'), ...flags], envWith(env));

describe('waypost server: a wrong DATABASE_URL', () => {
  it('a mysql:// URL is refused before anything is opened, naming DATABASE_URL and the schemes accepted', async () => {
    const { code, stdout, stderr } = await serve({ DATABASE_URL: 'mysql://root:hunter22@127.0.0.1:3306/fleet' });
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      'waypost server: DATABASE_URL uses mysql:// but Waypost stores in PostgreSQL only: use a postgres:// or ' +
        'postgresql:// URL, or unset DATABASE_URL to use SQLite (--database)\n',
    );
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a closed port: PostgreSQL, DATABASE_URL and host:port are named, the password is not', async () => {
    const port = await freePort();
    const { code, stderr } = await serve({ DATABASE_URL: `postgres://waypost:hunter22@127.0.0.1:${port}/fleet` });
    expect(code).toBe(1);
    expect(stderr).toBe(
      `waypost server: could not start: PostgreSQL at 127.0.0.1:${port} (DATABASE_URL) refused the connection ` +
        '(is PostgreSQL running, on that port?) [ECONNREFUSED]\n',
    );
    expect(stderr).not.toContain('hunter22');
  });
});

describe('waypost server: secrets and files', () => {
  it('a start that fails on a port in use creates neither the database nor the admin-token file', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => new Promise<void>((resolve) => blocker.close(() => resolve())));
    const { port } = blocker.address() as AddressInfo;
    const { code, stderr } = await runCli(
      ['server', '--port', String(port), '--database', join(dir, 'server.db')],
      envWith({}),
    );
    expect(code).toBe(1);
    expect(stderr).toMatch(/could not start: .*EADDRINUSE/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a database and token that were there before a failed start are left as they were', async () => {
    const database = join(dir, 'server.db');
    const earlier = await startServer({ port: 0, database });
    await earlier.close();
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => new Promise<void>((resolve) => blocker.close(() => resolve())));
    const { port } = blocker.address() as AddressInfo;
    const { code } = await runCli(['server', '--port', String(port), '--database', database], envWith({}));
    expect(code).toBe(1);
    expect(readFileSync(`${database}.admin-token`, 'utf8').trim()).toBe(earlier.adminToken);
    expect(existsSync(database)).toBe(true);
  });

  it.each([
    ['--admin-token', { env: {}, flags: ['--admin-token', 'secret'] }],
    ['WAYPOST_ADMIN_TOKEN', { env: { WAYPOST_ADMIN_TOKEN: 'secret' }, flags: [] }],
  ])('a %s of 6 characters is refused, saying how long one must be', async (givenBy, { env, flags }) => {
    const { code, stdout, stderr } = await serve(env, ...flags);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      `waypost server: ${givenBy} is 6 characters long; an admin token needs at least 16 (make one with: ` +
        'openssl rand -base64 24), or leave it out to have one generated\n',
    );
    expect(readdirSync(dir)).toEqual([]);
  });

  it("the quick start's admin-token file is ignored by git (git add . does not take it)", () => {
    const root = fileURLToPath(new URL('../../../', import.meta.url));
    const ignored = execFileSync(
      'git',
      ['check-ignore', '--no-index', 'server.db.admin-token', 'x/fleet.admin-token'],
      {
        cwd: root,
        encoding: 'utf8',
      },
    );
    expect(ignored).toBe('server.db.admin-token\nx/fleet.admin-token\n');
    expect(existsSync(join(root, '.gitignore'))).toBe(true);
  });
});
