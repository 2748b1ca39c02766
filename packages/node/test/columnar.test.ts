// Issue 34 end to end: the Node SDK against Waypost's own server, which advertises the columnar
// coding, uploads a real track (examples/track.gpx through the GPX parser, and the same track as
// NMEA sentences through the NMEA parser) in the coding; each body decodes to exactly the JSON
// text of its batch, and every record is stored exactly as the SDK's own records say. The engine's rules are in packages/sdk/test/compression.test.ts.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { describe, expect, it, onTestFinished } from 'vitest';
import { decodeColumnar } from '@waypost/sdk/internal';
import { NmeaDecoder, parseGpxTrack, type LocationInput } from '@waypost/node';
import { startServer } from '@waypost/server';
import { openSdk, syncUntilEmpty } from './support/harness.js';
import { epochSentences } from './providers/support/nmea-writer.js';

const GPX = readFileSync(new URL('../../../examples/track.gpx', import.meta.url), 'utf8');

/** The GPX track's fixes as a GN receiver would have written them, read back by the NMEA decoder. */
function viaNmea(fixes: LocationInput[]): LocationInput[] {
  const points = fixes.map((fix) => ({
    time: Number(fix.timestamp),
    latitude: fix.coords!.latitude!,
    longitude: fix.coords!.longitude!,
    altitude: fix.coords!.altitude ?? 0,
    speedMps: Math.max(0, fix.coords!.speed ?? 0),
    course: Math.max(0, fix.coords!.heading ?? 0),
  }));
  const decoder = new NmeaDecoder(() => points[0]!.time);
  const text = points.flatMap((point) => epochSentences(point)).join('\r\n');
  return [...decoder.push(`${text}\r\n`), ...decoder.end()];
}

/** Requests the track takes at most (3 batches of 100); past it the SDK never stops: answered 500. */
const MAX_REQUESTS = 20;

/**
 * A pass-through HTTP proxy in front of the server that notes each request's Content-Encoding, and
 * answers 500 past MAX_REQUESTS, so that an SDK that never stops uploading fails the test at once.
 */
async function codingRecorder(target: string) {
  const codings: string[] = [];
  const bodies: Buffer[] = [];
  const proxy = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (codings.length >= MAX_REQUESTS) {
        response.writeHead(500, { 'content-type': 'application/json' });
        return response.end('{"error":"runaway: more requests than the track takes"}');
      }
      codings.push(request.headers['content-encoding'] ?? 'none');
      bodies.push(Buffer.concat(chunks));
      const headers = Object.fromEntries(
        Object.entries(request.headers).filter(([name]) => !['host', 'connection', 'content-length'].includes(name)),
      ) as Record<string, string>;
      void fetch(target + request.url, { method: request.method, headers, body: Buffer.concat(chunks) }).then(
        async (answer) => {
          response.writeHead(answer.status, Object.fromEntries(answer.headers));
          response.end(Buffer.from(await answer.arrayBuffer()));
        },
        () => response.destroy(),
      );
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const { port } = proxy.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    codings,
    bodies,
    close: () => new Promise<void>((resolve) => proxy.close(() => resolve())),
  };
}

describe('the columnar coding against Waypost server', () => {
  it.each(['gpx', 'nmea'] as const)(
    'uploads the %s track in it, and the server stores exactly the SDK records',
    async (source) => {
      const dir = mkdtempSync(join(tmpdir(), 'waypost-columnar-'));
      onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
      const server = await startServer({ port: 0, database: join(dir, 'server.db'), adminToken: 'adm' });
      onTestFinished(() => server.close());
      const proxy = await codingRecorder(server.url);
      onTestFinished(() => proxy.close());
      const fixes = source === 'gpx' ? parseGpxTrack(GPX) : viaNmea(parseGpxTrack(GPX));
      expect(fixes.length).toBeGreaterThan(200);
      const bg = await openSdk();
      await bg.ready({
        http: {
          url: `${proxy.url}/locations`,
          autoSync: false,
          batchSync: true,
          maxBatchSize: 100,
          params: { device_id: source },
        },
      });
      await bg.start();
      for (const fix of fixes) await bg.recordLocation(fix);
      const records = await bg.getLocations();
      // The first upload learns the codings; the others are columnar.
      await syncUntilEmpty(bg);
      expect(proxy.codings[0]).toBe('none');
      // Waypost's server says every version: the SDK sends the newest.
      expect(proxy.codings.slice(1)).toEqual(proxy.codings.slice(1).map(() => 'x-waypost-columnar-3'));
      expect(proxy.codings.length).toBeGreaterThan(2);
      // Each columnar body decodes to exactly the JSON text of its batch, byte for byte.
      proxy.bodies.forEach((body, i) => {
        const batch = records.slice(i * 100, i * 100 + 100).map((r) => JSON.stringify(r));
        const json = `{"location":[${batch.join(',')}],"device_id":"${source}"}`;
        expect(i === 0 ? body.toString() : decodeColumnar(inflateRawSync(body), 1 << 22)).toBe(json);
      });
      const device = await fetch(`${server.url}/api/devices/${source}/locations?limit=10000`, {
        headers: { authorization: 'Bearer adm' },
      });
      const stored = ((await device.json()) as { record: unknown }[]).map((row) => row.record);
      expect(stored).toHaveLength(records.length);
      expect(new Set(stored.map((r) => JSON.stringify(r)))).toEqual(new Set(records.map((r) => JSON.stringify(r))));
    },
  );
});
