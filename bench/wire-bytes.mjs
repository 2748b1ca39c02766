// Bytes on the wire per location (issue 20): what the SDK sends for each recorded location,
// request line, headers and body together, counted at a raw TCP sink (a node:net server that
// answers every request 200 with `Accept-Encoding: gzip`, as Waypost's server does). Default-schema
// records along a realistic walk (varying coordinates, speed, heading, battery). Cases: one record
// per request and batches of 100 and 500; the anchor's default configuration (one record per
// request, bodies never compressed: http.compress 'none') against Waypost's (compress 'auto').
// Also the CPU cost of compressing, as the ratio of the uploading process's CPU time with and
// without gzip for the same batches. Target: batches of 100 at or below 80 bytes per location.
// Run after `npm run build`.
import { createServer } from 'node:net';
import { createBackgroundGeolocation, ManualNetwork } from '@waypost/node';

const TARGET_BYTES_PER_LOCATION_BATCH_100 = 80;
const RECORDS = 2_000;

/** A raw HTTP/1.1 sink that counts the bytes of each request and answers 200 `{}` (keep-alive). */
async function startRawSink() {
  const stats = { bytes: 0, requests: 0 };
  const server = createServer((socket) => {
    let buffer = Buffer.alloc(0);
    socket.on('data', (chunk) => {
      stats.bytes += chunk.length;
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = buffer.subarray(0, end).toString('latin1');
        const length = Number(/^content-length:\s*(\d+)/im.exec(head)?.[1] ?? 0);
        if (buffer.length < end + 4 + length) return;
        buffer = buffer.subarray(end + 4 + length);
        stats.requests++;
        socket.write(
          'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\naccept-encoding: gzip\r\ncontent-length: 2\r\n\r\n{}',
        );
      }
    });
    socket.on('error', () => {});
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/locations`,
    stats,
    close: () => new Promise((r) => server.close(r)),
  };
}

/** A walk: 1.4 m/s with a wandering heading, a fix every 5 s, battery draining. */
function* walk(count) {
  let lat = 45.5017;
  let lon = -73.5673;
  let heading = 45;
  for (let i = 0; i < count; i++) {
    heading = (heading + Math.sin(i / 7) * 25 + 360) % 360;
    lat += (7 * Math.cos((heading * Math.PI) / 180)) / 111_195;
    lon += (7 * Math.sin((heading * Math.PI) / 180)) / (111_195 * Math.cos((lat * Math.PI) / 180));
    yield {
      latitude: Number(lat.toFixed(7)),
      longitude: Number(lon.toFixed(7)),
      accuracy: 4 + (i % 7),
      speed: 1.2 + (i % 5) / 10,
      heading: Math.round(heading),
      altitude: 20 + (i % 11),
      battery: { level: Math.max(0.05, 1 - i / 10_000), is_charging: false },
      timestamp: Date.UTC(2026, 4, 17, 13) + i * 5000,
    };
  }
}

/** Records RECORDS locations, uploads them with `http`, and counts the sink's bytes and the CPU used. */
async function measure(sink, http) {
  const bg = await createBackgroundGeolocation({ database: ':memory:', network: new ManualNetwork('wifi') });
  await bg.ready({ http: { url: sink.url, autoSync: false, ...http } });
  await bg.start();
  // One upload first, so that 'auto' has heard the server say gzip (as after any first upload).
  await bg.recordLocation(walk(1).next().value);
  await bg.sync();
  for (const fix of walk(RECORDS)) await bg.recordLocation(fix);
  const before = { ...sink.stats };
  const cpu = process.cpuUsage();
  let sent = 0;
  while ((await bg.getCount()) > 0) sent += (await bg.sync()).length;
  const used = process.cpuUsage(cpu);
  await bg.close();
  return {
    perLocation: (sink.stats.bytes - before.bytes) / sent,
    requests: sink.stats.requests - before.requests,
    cpuMs: (used.user + used.system) / 1000,
  };
}

const sink = await startRawSink();
let failed = false;
try {
  console.log(
    `bytes on the wire per location (request line + headers + body), ${RECORDS} default-schema records along a walk`,
  );
  const cases = [
    { label: 'one per request, anchor default (never compressed)', http: { batchSync: false, compress: 'none' } },
    { label: 'one per request, Waypost default (auto)', http: { batchSync: false } },
    { label: 'batches of 100, uncompressed', http: { batchSync: true, maxBatchSize: 100, compress: 'none' } },
    { label: 'batches of 100, Waypost default (auto)', http: { batchSync: true, maxBatchSize: 100 }, target: true },
    { label: 'batches of 500, uncompressed', http: { batchSync: true, maxBatchSize: 500, compress: 'none' } },
    { label: 'batches of 500, Waypost default (auto)', http: { batchSync: true, maxBatchSize: 500 } },
  ];
  const results = [];
  for (const c of cases) {
    const r = await measure(sink, c.http);
    results.push(r);
    const verdict = c.target
      ? ` (target <= ${TARGET_BYTES_PER_LOCATION_BATCH_100}: ${r.perLocation <= TARGET_BYTES_PER_LOCATION_BATCH_100 ? 'met' : 'NOT met'})`
      : '';
    if (c.target && r.perLocation > TARGET_BYTES_PER_LOCATION_BATCH_100) failed = true;
    console.log(
      `${c.label.padEnd(52)} ${r.perLocation.toFixed(1).padStart(7)} bytes/location, ${r.requests} requests${verdict}`,
    );
  }
  const cpu = (plain, gz) => (gz.cpuMs / plain.cpuMs).toFixed(2);
  console.log(
    `CPU of the upload with gzip / without: ${cpu(results[0], results[1])} one per request, ` +
      `${cpu(results[2], results[3])} batches of 100, ${cpu(results[4], results[5])} batches of 500 (a report, no target)`,
  );
} finally {
  await sink.close();
}
process.exit(failed ? 1 : 0);
