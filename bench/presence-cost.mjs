// What a parked device costs (issue 31): a started SDK that stays stationary for a simulated day
// (ManualClock) with the default http.presenceInterval, uploading to a raw TCP sink that answers
// like Waypost's server (200, `Waypost-Health-Accepted: 1`). Counts the requests and their bytes
// (request line, headers and body) over the day. Targets: at most one request per presence
// interval (86,400 / presenceInterval), and at most 1 KiB per presence report on the wire.
// Run after `npm run build`.
import { startRawSink } from './lib/raw-sink.mjs';
import { createBackgroundGeolocation, ManualClock, ManualNetwork } from '@waypost/node';

const DAY_MS = 24 * 3600 * 1000;
const MAX_BYTES_PER_REPORT = 1024;

// A sink that answers like Waypost's server: it reads presence reports.
const sink = await startRawSink(() => 'waypost-health-accepted: 1\r\n');
const clock = new ManualClock(Date.UTC(2026, 10, 26, 18));
const bg = await createBackgroundGeolocation({ database: ':memory:', network: new ManualNetwork('wifi'), clock });
const state = await bg.ready({ http: { url: sink.url, params: { device_id: 'parked-van' } } });
const interval = state.http.presenceInterval;
await bg.start();
// It arrives and parks: its last record, uploaded (which also tells it the server reads reports).
await bg.recordLocation({ latitude: 52.52, longitude: 13.405, battery: { level: 0.8, is_charging: false } });
await bg.changePace(false);
await bg.sync();
await bg.idle();
const before = { bytes: sink.bytes, requests: sink.requests };
for (let t = 0; t < DAY_MS; t += 60_000) {
  await clock.advance(60_000);
  await bg.idle();
}
const requests = sink.requests - before.requests;
const bytes = sink.bytes - before.bytes;
await bg.close();
await sink.close();

const allowed = Math.floor(DAY_MS / 1000 / interval);
const perReport = requests > 0 ? bytes / requests : 0;
console.log(`presenceInterval ${interval} s: ${requests} requests, ${bytes} bytes per parked device per day`);
console.log(`  ${perReport.toFixed(0)} bytes per presence report (request line, headers, body)`);
const ok = requests <= allowed && requests > 0 && perReport <= MAX_BYTES_PER_REPORT;
console.log(`target: <= ${allowed} requests and <= ${MAX_BYTES_PER_REPORT} bytes per report: ${ok ? 'met' : 'MISSED'}`);
if (!ok) process.exitCode = 1;
