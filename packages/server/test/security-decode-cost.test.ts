import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer, killProcess, spawnServerScript, type ServerProcess } from './helpers/spawn-server.js';

const SCRIPT = fileURLToPath(new URL('./fixtures/sqlite-server-process.mjs', import.meta.url));
const BODY_LIMIT = 5 * 1024 * 1024; // the server's default bodyLimitBytes
/** A legitimate upload: one SDK batch of this many records, gzipped as the SDK sends it. */
const BATCH = 1000;
/** Generous room: before the decoders were bounded by what they produce, bombs cost 10-100x this. */
const MAX_CPU_VS_UPLOAD = 4;
const MAX_HEALTH_VS_UPLOADS = 5;
const CLIENTS = 4;
/** Alternating rounds of each load for the /health comparison. */
const ROUNDS = 3;

/** The CPU time of every thread of a process so far, in ms (/proc schedstat counts nanoseconds). */
function cpuMs(pid: number): number {
  return readdirSync(`/proc/${pid}/task`).reduce(
    (sum, task) => sum + Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'latin1').split(' ')[0]) / 1e6,
    0,
  );
}

/** Unsigned LEB128, the columnar coding's varint (docs/wire-format.md). */
function varint(value: number): number[] {
  const bytes: number[] = [];
  while (value >= 0x80) {
    bytes.push((value % 0x80) | 0x80);
    value = Math.floor(value / 0x80);
  }
  return [...bytes, value];
}

/**
 * The columnar bomb of issue 45, in `version`: a table (tag 2) of `rows` rows of the empty shape,
 * no columns, one shape of no keys (version 2 first says "no preset"). It decodes to
 * `[{},{},...]`, 3 bytes a row, within the body limit for 1,747,626 rows.
 */
function columnarBomb(version: 1 | 2, rows = Math.floor((BODY_LIMIT - 1) / 3)): Buffer {
  const shape = version === 2 ? [0, 0] : [0];
  return deflateRawSync(Buffer.from([version, 2, ...varint(rows), 0, 1, ...shape]), { level: 9 });
}

/** JSON text just under the body limit, of `item` repeated: the most values a body of that size can hold. */
function repeated(item: string): string {
  const count = Math.floor((BODY_LIMIT - 2) / (item.length + 1));
  return `[${Array.from({ length: count }, () => item).join(',')}]`;
}

function record(device: string, i: number) {
  return {
    uuid: `${device}-${i}`,
    timestamp: new Date(Date.UTC(2026, 0, 1) + i * 5000).toISOString(),
    is_moving: true,
    odometer: 1000 + i,
    coords: { latitude: 52.5 + i / 1e5, longitude: 13.4 + i / 1e5, accuracy: 5, speed: 1.5, heading: 90, altitude: 40 },
    activity: { type: 'walking', confidence: 90 },
    battery: { level: 0.8, is_charging: false },
    extras: {},
  };
}

const legitimateUpload = (device: string): Buffer =>
  gzipSync(JSON.stringify({ location: Array.from({ length: BATCH }, (_, i) => record(device, i)), device_id: device }));

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

describe('what a decoded body costs is bounded by what it may produce (issue 45)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'waypost-decode-cost-'));
  let server: ServerProcess;
  let uploads = 0;
  beforeAll(async () => {
    // A child process from the built package, so its CPU time is the server's own.
    buildServer();
    server = await spawnServerScript(SCRIPT, [join(dir, 'server.db'), '0']);
  });
  afterAll(async () => {
    if (server) await killProcess(server.child);
    rmSync(dir, { recursive: true, force: true });
  });

  const send = async (body: Buffer, encoding: string | null) => {
    const response = await fetch(`${server.url}/locations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(encoding ? { 'content-encoding': encoding } : {}) },
      body,
    });
    return { status: response.status, body: (await response.json()) as { code?: string; stored?: number } };
  };
  /** One legitimate upload of a new device; `ready` holds bodies built ahead, taken first. */
  const upload = async (ready: Buffer[] = []) => {
    uploads += 1;
    const answer = await send(ready.pop() ?? legitimateUpload(`walker-${uploads}`), 'gzip');
    expect(answer).toMatchObject({ status: 200, body: { stored: BATCH } });
  };
  /** The server's CPU for `request` (ms), each of `times` in turn, the median. */
  const cpuOf = async (times: number, request: () => Promise<unknown>) => {
    const costs: number[] = [];
    for (let i = 0; i < times; i++) {
      const before = cpuMs(server.child.pid!);
      await request();
      costs.push(cpuMs(server.child.pid!) - before);
    }
    return median(costs);
  };
  /** /health's answer times (ms) while `clients` run `load` over and over. */
  const healthUnder = async (load: () => Promise<unknown>) => {
    let running = true;
    const clients = Array.from({ length: CLIENTS }, async () => {
      for (let i = 0; i < 3 || running; i++) await load();
    });
    const times: number[] = [];
    for (let i = 0; i < 20; i++) {
      const start = performance.now();
      const response = await fetch(`${server.url}/health`);
      expect(response.status).toBe(200);
      await response.text();
      times.push(performance.now() - start);
    }
    running = false;
    await Promise.all(clients);
    return times;
  };

  it('refuses the worst body of each coding for a small multiple of what a legitimate upload costs', async () => {
    const empties = repeated('{}');
    const zeros = repeated('0');
    const bombs: [string, Buffer, string | null][] = [
      ['x-waypost-columnar', columnarBomb(1), 'x-waypost-columnar'],
      ['x-waypost-columnar-2', columnarBomb(2), 'x-waypost-columnar-2'],
      ['gzip of [{},...]', gzipSync(empties, { level: 9 }), 'gzip'],
      ['gzip of [0,...]', gzipSync(zeros, { level: 9 }), 'gzip'],
      ['deflate of [{},...]', deflateSync(empties, { level: 9 }), 'deflate'],
      ['br of [{},...]', brotliCompressSync(empties), 'br'],
      ['plain [{},...]', Buffer.from(empties), null],
    ];
    expect(columnarBomb(1).length).toBeLessThanOrEqual(16);
    await upload(); // warm-up: the first upload compiles the ingest path
    const legitimate = await cpuOf(5, upload);
    const costs: Record<string, number> = {};
    for (const [name, body, encoding] of bombs) {
      costs[name] = await cpuOf(3, async () => {
        expect((await send(body, encoding)).status, name).toBe(413);
      });
    }
    if (process.env.WAYPOST_PRINT_CPU) console.log({ legitimate, ...costs });
    for (const [name, cost] of Object.entries(costs)) {
      expect(cost / legitimate, `${name}: ${cost.toFixed(1)} ms vs ${legitimate.toFixed(1)} ms`).toBeLessThan(
        MAX_CPU_VS_UPLOAD,
      );
    }
  });

  it('keeps /health answering under four clients sending columnar bombs as under four uploading devices', async () => {
    const bomb = columnarBomb(1);
    // Rounds alternate, and each side's median is over all its rounds, so a stretch when the machine
    // is busy with other work (CI runs the suite two files at a time) weighs on both sides alike.
    const uploadTimes: number[] = [];
    const bombTimes: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // Built ahead, so the devices keep the server as busy as the bombs do however slow this process is.
      const ready = Array.from({ length: 40 }, (_, i) => legitimateUpload(`round-${round}-walker-${i}`));
      uploadTimes.push(...(await healthUnder(() => upload(ready))));
      bombTimes.push(...(await healthUnder(() => send(bomb, 'x-waypost-columnar'))));
    }
    const underUploads = median(uploadTimes);
    const underBombs = median(bombTimes);
    if (process.env.WAYPOST_PRINT_CPU) console.log({ underUploads, underBombs });
    expect(underBombs / underUploads).toBeLessThan(MAX_HEALTH_VS_UPLOADS);
  });
});
