// startServer() refuses an option it cannot work with before anything listens, with one kind of
// error a program can tell apart: ServerOptionError, code INVALID_OPTION, naming the option.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createBackgroundGeolocation } from '@waypost/node';
import { ServerOptionError, startServer, type ServerOptions } from '@waypost/server';

describe('startServer() options', () => {
  it.each<[Partial<ServerOptions>, string]>([
    [{ port: 70_000 }, 'port'],
    [{ tileUrl: 'tiles.example' }, 'tileUrl'],
    [{ tileUrl: 'https://tiles.example/world.png' }, 'tileUrl'],
    [{ tileUrl: 'https://t.example/{z}/{x}/{y}.png', tileFile: 'world.mbtiles' }, 'tileUrl'],
    [{ corsOrigins: ['https://app.example/login'] }, 'corsOrigins'],
    [{ registration: 'secret', registrationSecret: '' }, 'registrationSecret'],
    [{ sinkEvents: ['geofence.entered'] }, 'sinkEvents'],
    [{ webhooks: ['backend/hooks'] }, 'webhooks'],
    // A NATS cluster's list: every member is checked (docs/deploy/).
    [{ natsUrl: 'nats://10.0.0.1:4222,http://10.0.0.2:4222' }, 'natsUrl'],
    [{ maxConnections: 0 }, 'maxConnections'],
    [{ rateLimit: -1 }, 'rateLimit'],
  ])('%j is refused as option %s', async (options, option) => {
    const error = await startServer({ port: 0, database: ':memory:', ...options }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerOptionError);
    expect(error).toMatchObject({
      code: 'INVALID_OPTION',
      option,
      message: expect.stringMatching(`^Option ${option} `),
    });
  });

  it('a tile template with a subdomain placeholder and an origin with a trailing slash are fine', async () => {
    const server = await startServer({
      port: 0,
      database: ':memory:',
      tileUrl: 'https://{s}.tile.example.org/{z}/{x}/{y}.png',
      corsOrigins: ['https://app.example/'],
    });
    onTestFinished(() => server.close());
    const response = await fetch(`${server.url}/health`, { headers: { origin: 'https://app.example' } });
    expect(response.headers.get('access-control-allow-origin')).toBe('https://app.example');
  });

  it("a device's queue given as the database is refused, named, and left as it was", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'waypost-server-db-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'agent.db');
    await (await createBackgroundGeolocation({ database: file })).close();
    const tables = () => {
      const db = new Database(file, { readonly: true });
      try {
        return db.prepare(`SELECT name FROM sqlite_master ORDER BY name`).all();
      } finally {
        db.close();
      }
    };
    const before = tables();
    await expect(startServer({ port: 0, database: file })).rejects.toThrow(
      `Cannot open the database ${file}: it is not a Waypost server database: it holds another program's tables (archive, archive_bytes, geofences,`,
    );
    expect(tables()).toEqual(before);
  });
});
