// `waypost receipts` (issue 46): per day, up to where a Waypost server holds a device's records,
// verified by receipt, read from the device's database after the app closed it.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBackgroundGeolocation, ManualClock, ManualNetwork } from '@waypost/node';
import { startServer } from '@waypost/server';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { main } from '../src/cli.js';
import { captureIo } from './support/capture-io.js';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'waypost-cli-receipts-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

async function run(...argv: string[]) {
  const io = captureIo();
  const code = await main(argv, io);
  return { code, out: io.out(), err: io.err() };
}

it('prints each day the server acknowledged, up to where, with the URL shown without its query', async () => {
  const clock = new ManualClock(Date.UTC(2026, 10, 27, 23, 50));
  const server = await startServer({
    port: 0,
    adminToken: 'a',
    mapStyle: null,
    database: join(dir, 'server.db'),
    now: () => clock.now(),
  });
  const database = join(dir, 'device.db');
  try {
    const bg = await createBackgroundGeolocation({ database, network: new ManualNetwork('wifi'), clock });
    await bg.ready({
      http: {
        url: `${server.url}/locations?token=secret`,
        params: { device_id: 'cli' },
        batchSync: true,
        autoSync: false,
      },
    });
    const upload = async (n: number) => {
      for (let i = 0; i < n; i++) await bg.store.insertLocation({ latitude: 52.5, longitude: 13.4 });
      await bg.sync();
    };
    await upload(1); // learns the offer
    await upload(3); // 2-4 on the 27th
    await clock.advance(20 * 60 * 1000);
    await upload(2); // 5-6 on the 28th
    await bg.close();
  } finally {
    await server.close();
  }
  const table = await run('receipts', '--database', database);
  expect(table.code).toBe(0);
  const lines = table.out.trim().split('\n');
  expect(lines[0]).toMatch(/^day\s+url\s+numbering\s+up to\s+records\s+ranges$/);
  expect(lines.slice(2).map((line) => line.split(/\s+/).filter((_c, i) => i !== 2))).toEqual([
    ['2026-11-27', `${server.url}/locations`, '4', '3', '2-4'],
    ['2026-11-28', `${server.url}/locations`, '6', '2', '5-6'],
  ]);
  expect(table.out).not.toContain('secret');
  const json = await run('receipts', '--database', database, '--json');
  expect(
    json.out
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line).upTo),
  ).toEqual([4, 6]);
});
