import { mkdtemp, rm } from 'node:fs/promises';
import Database from 'better-sqlite3';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBackgroundGeolocation, ManualNetwork } from '@waypost/node';
import { startServer } from '@waypost/server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../src/cli.js';
import { EXIT_WAIT_MS } from './support/agent-process.js';
import { within } from './support/bounded.js';
import { captureIo } from './support/capture-io.js';
import { freePort } from './support/free-port.js';
import { startRecordingServer, type RecordingServer } from './support/recording-server.js';

let dir: string;
let database: string;
let receiver: RecordingServer;
let uuids: string[];

/** A device database as an app leaves it: a saved url and params, five records queued, a log. */
async function prepareDatabase(url: string): Promise<string[]> {
  const bg = await createBackgroundGeolocation({ database, network: new ManualNetwork('none') });
  await bg.ready({ http: { url, params: { device_id: 'cli-test' } } });
  const recorded: string[] = [];
  for (let i = 0; i < 5; i++) {
    const location = await bg.store.insertLocation({ latitude: 52.5 + i / 1000, longitude: 13.4, accuracy: 5 });
    recorded.push(location.uuid);
  }
  await bg.close();
  return recorded;
}

async function run(...argv: string[]) {
  const io = captureIo();
  // Bounded: a sync whose uploads never end fails naming the command, not at the test's timeout.
  const code = await within(
    main(argv, io),
    EXIT_WAIT_MS,
    () => `waypost ${argv.join(' ')} to end; stderr:\n${io.err()}`,
  );
  return { code, out: io.out(), err: io.err() };
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'waypost-cli-queue-'));
  database = join(dir, 'device.db');
  receiver = await startRecordingServer();
  uuids = await prepareDatabase(receiver.url);
});

afterEach(async () => {
  await receiver.close();
  await rm(dir, { recursive: true, force: true });
});

describe('waypost queue', () => {
  it('counts the queued records', async () => {
    expect(await run('queue', '--database', database, 'count')).toEqual({ code: 0, out: '5\n', err: '' });
  });

  it('lists records one JSON object per line, in queue order, up to --limit', async () => {
    const { code, out, err } = await run('queue', '--database', database, 'list', '--limit', '2');
    expect(code).toBe(0);
    const records = out
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { uuid: string; coords: { latitude: number } });
    expect(records.map((r) => r.uuid)).toEqual(uuids.slice(0, 2));
    expect(records[1]!.coords.latitude).toBeCloseTo(52.501);
    expect(err).toBe('showing 2 of 5 (use --limit)\n');
  });

  it('uploads the queue to the saved url with the saved params', async () => {
    const { code, out } = await run('queue', '--database', database, 'sync');
    expect(code).toBe(0);
    expect(out).toBe('delivered 5, queued 0\n');
    expect(receiver.bodies).toHaveLength(5);
    expect(receiver.bodies[0]).toMatchObject({ location: { uuid: uuids[0] }, device_id: 'cli-test' });
    expect((await run('queue', '--database', database, 'count')).out).toBe('0\n');
  });

  it('syncs to --url for this sync only, keeping the saved url', async () => {
    const other = await startRecordingServer();
    try {
      expect((await run('queue', '--database', database, 'sync', '--url', other.url)).code).toBe(0);
      expect(other.bodies).toHaveLength(5);
      expect(receiver.bodies).toHaveLength(0);
    } finally {
      await other.close();
    }
    const bg = await createBackgroundGeolocation({ database, network: new ManualNetwork('none') });
    expect((await bg.getState()).http.url).toBe(receiver.url);
    await bg.close();
  });

  it('exits 1 and keeps the records when the server cannot be reached', async () => {
    // A closed port, not the receiver closed: its port could be taken by a test running beside.
    const closed = `http://127.0.0.1:${await freePort()}/locations`;
    const { code, out, err } = await run('queue', '--database', database, 'sync', '--url', closed);
    expect(code).toBe(1);
    expect(out).toBe('delivered 0, queued 5\n');
    expect(err).toMatch(
      /upload stopped \(no response: connection refused \(Request to 127\.0\.0\.1:\d+ failed: ECONNREFUSED\)\); 5 records stay queued/,
    );
    expect((await run('queue', '--database', database, 'count')).out).toBe('5\n');
  });

  it('destroys the queue and says how many records went', async () => {
    expect(await run('queue', '--database', database, 'destroy')).toEqual({ code: 0, out: '5\n', err: '' });
    expect((await run('queue', '--database', database, 'count')).out).toBe('0\n');
  });

  it('refuses a database file that does not exist instead of creating it', async () => {
    const missing = join(dir, 'typo.db');
    const { code, err } = await run('queue', '--database', missing, 'count');
    expect(code).toBe(1);
    expect(err).toContain(`no Waypost database at ${missing}`);
  });

  it("refuses the server's database (given by mistake) without touching it", async () => {
    const server = await startServer({ port: 0, database: join(dir, 'server.db'), adminToken: 'adm' });
    await server.close();
    const before = schemaOf(join(dir, 'server.db'));
    for (const action of ['count', 'destroy']) {
      const { code, err } = await run('queue', '--database', join(dir, 'server.db'), action);
      expect(code).toBe(1);
      expect(err).toMatch(/is not a Waypost device database: it holds another program's tables \(.*commands, /);
    }
    expect(schemaOf(join(dir, 'server.db'))).toEqual(before);
  });
});

/** The tables and journal mode of a SQLite file, read without changing it. */
function schemaOf(file: string): { tables: string[]; journal: unknown } {
  const db = new Database(file, { readonly: true });
  try {
    const tables = (db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all() as { name: string }[]).map(
      (row) => row.name,
    );
    return { tables: tables.sort(), journal: db.pragma('journal_mode', { simple: true }) };
  } finally {
    db.close();
  }
}

describe('waypost log', () => {
  it('prints the SDK log, oldest first, with each insert traced', async () => {
    const { code, out } = await run('log', '--database', database);
    expect(code).toBe(0);
    for (const uuid of uuids) expect(out).toContain(`INSERT ${uuid}`);
    expect(out.indexOf(`INSERT ${uuids[0]}`)).toBeLessThan(out.indexOf(`INSERT ${uuids[4]}`));
  });

  it('shows only the most recent entries with --limit', async () => {
    await run('queue', '--database', database, 'sync');
    const { code, out } = await run('log', '--database', database, '--limit', '3');
    expect(code).toBe(0);
    const lines = out.trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines.at(-1)).toContain(`DESTROY 1 record [${uuids[4]}]`);
  });
});
