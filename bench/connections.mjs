// Connection scale (issue 20): N devices each holding a keep-alive connection to ONE server
// process, mostly idle, 1% of them uploading a record every second, for 1,000 and 10,000 devices.
// Reports the server's RSS (its own process) after the fleet connected and at the end, p50/p99 of
// the uploads, and how both grow from 1,000 to 10,000; no connection may be refused below the
// server's maxConnections (the documented limit), and the one above it must be. Bounded: each fleet
// runs DURATION_S seconds. Run after `npm run build`.
import { Agent, request } from 'node:http';
import { startServerProcess } from './lib/server-process-client.mjs';

const FLEETS = (process.env.WAYPOST_BENCH_FLEETS ?? '1000,10000').split(',').map(Number);
const DURATION_S = Number(process.env.WAYPOST_BENCH_DURATION ?? 15);
const CONNECT_CONCURRENCY = 250;
/** p99 of an upload, with 10,000 idle connections held: a line a device never notices. */
const TARGET_P99_MS = 250;

let sequence = 0;
function upload(agent, url, device) {
  const i = sequence++;
  const body = Buffer.from(
    JSON.stringify({
      device_id: device,
      location: {
        uuid: `${device}-${i}`,
        timestamp: new Date(Date.now() - 1000).toISOString(),
        is_moving: true,
        odometer: i,
        coords: { latitude: 45.5 + (i % 100) / 1e4, longitude: -73.56, accuracy: 5, speed: 1.2, heading: 90 },
        activity: { type: 'walking', confidence: 100 },
        battery: { level: 0.8, is_charging: false },
      },
    }),
  );
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}/locations`,
      { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': body.length } },
      (res) => {
        res.resume();
        res.on('end', () =>
          res.statusCode === 200
            ? resolve(Number(process.hrtime.bigint() - started) / 1e6)
            : reject(new Error(`HTTP ${res.statusCode}`)),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const openSockets = (agent) =>
  [...Object.values(agent.sockets), ...Object.values(agent.freeSockets)].reduce((n, list) => n + list.length, 0);

async function runFleet(devices) {
  const limit = devices + 10;
  const server = startServerProcess({ rateLimit: 0, rateLimitPerAddress: 0, maxConnections: limit });
  const url = await server.start();
  // One agent per connection wave: an agent reuses its idle sockets, so each wave needs its own to
  // open new connections; device d keeps using its wave's agent (FIFO: spread over its sockets).
  const agents = Array.from(
    { length: Math.ceil(devices / CONNECT_CONCURRENCY) },
    () => new Agent({ keepAlive: true, maxSockets: Infinity, maxFreeSockets: Infinity, scheduling: 'fifo' }),
  );
  const agentOf = (d) => agents[Math.floor(d / CONNECT_CONCURRENCY)];
  try {
    const rssBefore = await server.rss();
    // Every device connects with its first upload, CONNECT_CONCURRENCY at a time: all N
    // connections are then open and idle (FIFO reuse spreads the later uploads over them).
    let refused = 0;
    for (let start = 0; start < devices; start += CONNECT_CONCURRENCY) {
      const wave = [];
      for (let d = start; d < Math.min(devices, start + CONNECT_CONCURRENCY); d++) {
        wave.push(upload(agentOf(d), url, `d${d}`));
      }
      const results = await Promise.allSettled(wave);
      refused += results.filter((r) => r.status === 'rejected').length;
    }
    const connected = agents.reduce((n, agent) => n + openSockets(agent), 0);
    const rssConnected = await server.rss();
    // 1% of the fleet uploads each second.
    const latencies = [];
    let failed = 0;
    const perSecond = Math.max(1, Math.round(devices / 100));
    for (let second = 0; second < DURATION_S; second++) {
      const tick = new Promise((resolve) => setTimeout(resolve, 1000));
      const uploads = Array.from({ length: perSecond }, (_, k) => (second * perSecond + k) % devices).map((d) =>
        upload(agentOf(d), url, `d${d}`).then(
          (ms) => latencies.push(ms),
          () => failed++,
        ),
      );
      await Promise.all([tick, ...uploads]);
    }
    const rssEnd = await server.rss();
    latencies.sort((a, b) => a - b);
    return {
      devices,
      limit,
      connected,
      refused,
      failed,
      uploads: latencies.length,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      rssBeforeMb: rssBefore / 2 ** 20,
      rssConnectedMb: rssConnected / 2 ** 20,
      rssEndMb: rssEnd / 2 ** 20,
    };
  } finally {
    agents.forEach((agent) => agent.destroy());
    await server.close();
  }
}

/** Above the limit: with maxConnections 50, the 51st simultaneous connection is refused. */
async function limitHolds() {
  const server = startServerProcess({ rateLimit: 0, rateLimitPerAddress: 0, maxConnections: 50 });
  const url = await server.start();
  const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
  try {
    const results = await Promise.allSettled(Array.from({ length: 60 }, (_, d) => upload(agent, url, `l${d}`)));
    return results.filter((r) => r.status === 'rejected').length;
  } finally {
    agent.destroy();
    await server.close();
  }
}

const results = [];
let failed = false;
console.log(
  `connection scale: keep-alive devices on one server process (SQLite), 1% uploading per second, ${DURATION_S} s each`,
);
for (const devices of FLEETS) {
  const r = await runFleet(devices);
  results.push(r);
  const ok = r.refused === 0 && r.failed === 0 && r.connected >= devices && r.p99 <= TARGET_P99_MS;
  if (!ok) failed = true;
  console.log(
    `${String(devices).padStart(6)} devices (maxConnections ${r.limit}): ${r.connected} connections open, ${r.refused} refused, ` +
      `${r.uploads} uploads (${r.failed} failed) p50 ${r.p50.toFixed(1)} ms p99 ${r.p99.toFixed(1)} ms ` +
      `(target p99 <= ${TARGET_P99_MS} ms: ${ok ? 'met' : 'NOT met'}) | server RSS ${r.rssBeforeMb.toFixed(0)} MiB idle, ` +
      `${r.rssConnectedMb.toFixed(0)} MiB connected, ${r.rssEndMb.toFixed(0)} MiB at the end`,
  );
}
if (results.length >= 2) {
  const [a, b] = [results[0], results.at(-1)];
  const perConnKb = ((b.rssConnectedMb - a.rssConnectedMb) * 1024) / (b.devices - a.devices);
  console.log(
    `from ${a.devices} to ${b.devices} devices: RSS ${a.rssConnectedMb.toFixed(0)} -> ${b.rssConnectedMb.toFixed(0)} MiB ` +
      `(~${perConnKb.toFixed(1)} KiB per connection), p99 ${a.p99.toFixed(1)} -> ${b.p99.toFixed(1)} ms`,
  );
}
const overLimit = await limitHolds();
console.log(
  `maxConnections 50, 60 devices at once: ${overLimit} refused (expected 10: ${overLimit === 10 ? 'met' : 'NOT met'})`,
);
if (overLimit !== 10) failed = true;
process.exit(failed ? 1 : 0);
