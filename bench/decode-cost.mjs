// What a hostile body costs the server (issue 45): the worst body of each request coding that fits
// the limits (5 MiB decoded, the default bodyLimitBytes), sent anonymously to POST /locations, against
// a legitimate upload measured in the same run (one SDK batch of 1,000 default records, gzipped, into
// SQLite). The cost is the server process's CPU time (every thread: the event loop and zlib's pool),
// read from /proc, per request, the median of ROUNDS. Target: every bomb within MAX_RATIO of the
// legitimate upload. Before the decoders were bounded by what they produce, the 10-byte columnar
// bomb cost about 1.5 s (80x). Linux only (/proc). Run after `npm run build`.
import { fork } from 'node:child_process';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { defaultRecord, movingFix } from './lib/default-record.mjs';
import { processCpuMs as cpuMs } from './lib/process-cpu.mjs';

const BODY_LIMIT = 5 * 1024 * 1024;
const BATCH = 1000;
const ROUNDS = Number(process.env.WAYPOST_BENCH_ROUNDS ?? 5);
const MAX_RATIO = 2;

const varint = (value) => {
  const bytes = [];
  while (value >= 0x80) {
    bytes.push((value % 0x80) | 0x80);
    value = Math.floor(value / 0x80);
  }
  return [...bytes, value];
};
/** A table of rows of the empty shape, as many as fit the body limit decoded (3 bytes each). */
const columnarBomb = (version) =>
  deflateRawSync(
    Buffer.from([version, 2, ...varint(Math.floor((BODY_LIMIT - 1) / 3)), 0, 1, ...(version === 2 ? [0, 0] : [0])]),
    { level: 9 },
  );
const repeated = (item) =>
  `[${Array.from({ length: Math.floor((BODY_LIMIT - 2) / (item.length + 1)) }, () => item).join(',')}]`;
/** Just under the object limit (16 per record of the default 10,000, plus 4,096): parsed, then refused as too many records. */
const underLimit = `[${Array.from({ length: 10_000 * 16 + 4096 - 1 }, () => '{}').join(',')}]`;
const nested = `${'['.repeat(31)}${']'.repeat(31)}`;

const empties = repeated('{}');
const zeros = repeated('0');
const strings = repeated('""');
const BOMBS = [
  ['x-waypost-columnar: 1,747,626 rows of {}', columnarBomb(1), 'x-waypost-columnar'],
  ['x-waypost-columnar-2: the same', columnarBomb(2), 'x-waypost-columnar-2'],
  ['gzip: [{},{},...]', gzipSync(empties, { level: 9 }), 'gzip'],
  ['gzip: [0,0,...]', gzipSync(zeros, { level: 9 }), 'gzip'],
  ['gzip: ["","",...]', gzipSync(strings, { level: 9 }), 'gzip'],
  ['gzip: 164,095 x {}, under the object limit', gzipSync(underLimit, { level: 9 }), 'gzip'],
  ['gzip: 31 deep, repeated', gzipSync(repeated(nested), { level: 9 }), 'gzip'],
  ['deflate: [{},{},...]', deflateSync(empties, { level: 9 }), 'deflate'],
  ['br: [{},{},...]', brotliCompressSync(empties), 'br'],
  ['identity: [{},{},...]', Buffer.from(empties), null],
];

const child = fork(new URL('./lib/server-process.mjs', import.meta.url));
const message = (wanted) => new Promise((resolve) => child.on('message', (m) => wanted(m) && resolve(m)));
await message((m) => m.ready);
child.send({ start: { adminToken: 'bench-admin-secret' } });
const { url } = await message((m) => m.url);

const send = async (body, encoding) => {
  const response = await fetch(`${url}/locations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(encoding ? { 'content-encoding': encoding } : {}) },
    body,
  });
  await response.arrayBuffer();
  return response.status;
};
let uploads = 0;
const legitimate = () => {
  uploads += 1;
  const device = `bench-walker-${uploads}`;
  const records = Array.from({ length: BATCH }, (_, i) =>
    defaultRecord(movingFix(i), {
      uuid: `${device}-${i}`,
      timestamp: new Date(Date.UTC(2026, 0, 1) + i * 5000).toISOString(),
    }),
  );
  return gzipSync(JSON.stringify({ location: records, device_id: device }));
};
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
async function costOf(body, encoding, expected) {
  const costs = [];
  for (let i = 0; i < ROUNDS; i++) {
    const sent = typeof body === 'function' ? body() : body;
    const before = cpuMs(child.pid);
    const status = await send(sent, encoding);
    costs.push(cpuMs(child.pid) - before);
    if (status !== expected) throw new Error(`expected ${expected}, got ${status}`);
  }
  return median(costs);
}

let worst = 0;
try {
  await costOf(legitimate, 'gzip', 200); // warm-up
  const floor = await costOf(legitimate, 'gzip', 200);
  console.log(`legitimate upload: ${BATCH} records gzipped, ${legitimate().length} bytes: ${floor.toFixed(1)} ms CPU`);
  for (const [name, body, encoding] of BOMBS) {
    const cost = await costOf(body, encoding, 413);
    worst = Math.max(worst, cost / floor);
    console.log(
      `  ${name.padEnd(42)} ${String(body.length).padStart(8)} bytes: ${cost.toFixed(1).padStart(6)} ms CPU, ${(cost / floor).toFixed(2)}x`,
    );
  }
} finally {
  // Closed whatever happened: a bench that throws leaves no server behind.
  child.send('close');
  await message((m) => m.closed);
}
const pass = worst <= MAX_RATIO;
console.log(
  `target: every bomb <= ${MAX_RATIO}x a legitimate upload: ${pass ? 'met' : 'MISSED'} (worst ${worst.toFixed(2)}x)`,
);
process.exitCode = pass ? 0 : 1;
