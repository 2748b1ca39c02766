// Issue 34, the server's side of the columnar coding (docs/wire-format.md): a body in
// x-waypost-columnar is decoded to the JSON text the SDK would have sent, so ingest, dedup and
// quarantine see the same body (the same answer, the same stored records, the same duplicates);
// hostile bodies are refused with a status and a code, bounded, with nothing stored.
import { deflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeColumnar } from '@waypost/sdk/internal';
import { backends } from './helpers/backends.js';
import { startTestServer, type Json, type TestServer } from './helpers/client.js';

const COLUMNAR = 'x-waypost-columnar';
const record = (i: number, latitude = 45.5 + i / 1e4) => ({
  uuid: `0190a3b4-5c6d-8e7f-9a0b-1c2d${(0x3e4f0000 + i).toString(16)}`,
  timestamp: new Date(Date.UTC(2026, 4, 17, 13) + i * 5000).toISOString(),
  is_moving: true,
  odometer: i * 11.1,
  coords: { latitude, longitude: -73.5, accuracy: 5, speed: 1.4, heading: 45, altitude: 20, altitude_accuracy: -1 },
  activity: { type: 'walking', confidence: 100 },
  battery: { level: 0.8, is_charging: false },
  extras: { trip: 'a' },
  sequence: i + 1,
});
/** A batch of 20 with one record whose latitude is out of range (quarantined, not stored). */
const batch = (device: string) =>
  JSON.stringify({
    location: Array.from({ length: 20 }, (_, i) => record(i, i === 7 ? 500 : undefined)),
    device_id: device,
  });
const columnar = (json: string, version: 1 | 2 = 2) => deflateRawSync(encodeColumnar(json, version)!);
const COLUMNAR_2 = 'x-waypost-columnar-2';

describe.each(backends)('x-waypost-columnar on $name', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend, { bodyLimitBytes: 1024 * 1024 });
  });
  afterAll(() => server?.stop());

  const upload = async (body: Uint8Array | string, coding?: string) => {
    const response = await fetch(`${server.url}/locations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(coding ? { 'content-encoding': coding } : {}) },
      body,
    });
    return {
      status: response.status,
      advertised: response.headers.get('accept-encoding'),
      body: (await response.json()) as Json,
    };
  };
  const stored = async (device: string) => {
    const reply = await server.admin(`/api/devices/${device}/locations`);
    // A device that never stored anything does not exist: 404 UNKNOWN_DEVICE.
    if (reply.status === 404) return [];
    return (reply.body as Json[]).map(({ device_id: _, receivedAt: __, ...rest }) => rest);
  };

  it('the same answer, the same stored records and the same dedup as the plain JSON body', async () => {
    const plain = await upload(batch('plain-1'));
    const coded = await upload(columnar(batch('columnar-1'), 1), COLUMNAR);
    const coded2 = await upload(columnar(batch('columnar-2')), COLUMNAR_2);
    expect(coded.status).toBe(plain.status);
    expect(coded.body).toEqual(plain.body);
    expect(coded2.body).toEqual(plain.body);
    expect(plain.body).toMatchObject({ stored: 19 });
    expect(await stored('columnar-1')).toEqual(await stored('plain-1'));
    expect(await stored('columnar-2')).toEqual(await stored('plain-1'));
    // Sent again, in any form: every record is a duplicate of what the columnar body stored.
    expect((await upload(columnar(batch('columnar-1'), 1), COLUMNAR)).body).toMatchObject({
      stored: 0,
      duplicates: 19,
    });
    expect((await upload(columnar(batch('columnar-1')), COLUMNAR_2)).body).toMatchObject({ stored: 0, duplicates: 19 });
    expect((await upload(batch('columnar-1'))).body).toMatchObject({ stored: 0, duplicates: 19 });
  });

  it('each token takes its own version only: version 2 bytes as x-waypost-columnar are refused with 400, nothing stored', async () => {
    const v2AsV1 = await upload(columnar(batch('columnar-mixed')), COLUMNAR);
    expect([v2AsV1.status, v2AsV1.body.code]).toEqual([400, 'INVALID_COLUMNAR']);
    const v1AsV2 = await upload(columnar(batch('columnar-mixed'), 1), COLUMNAR_2);
    expect([v1AsV2.status, v1AsV2.body.code]).toEqual([400, 'INVALID_COLUMNAR']);
    expect(await stored('columnar-mixed')).toEqual([]);
  });

  it('hostile bodies: 413 for bombs, 400 with a code for broken ones, the coding still advertised, nothing stored', async () => {
    const devicesBefore = JSON.stringify((await server.admin('/api/devices')).body);
    // 13 bytes claiming 2^40 rows, raw-deflated: refused before a row is decoded.
    const bomb = deflateRawSync(Uint8Array.from([1, 2, 0x80, 0x80, 0x80, 0x80, 0x80, 0x20, 1, 1, 1, 2, 1]));
    const refusedBomb = await upload(bomb, COLUMNAR);
    expect([refusedBomb.status, refusedBomb.body.code]).toEqual([413, 'BODY_TOO_LARGE']);
    expect(refusedBomb.advertised).toContain(COLUMNAR);
    // A deflate stream of 64 MiB of zeros (64 KiB on the wire): zlib stops at the limit.
    const zeros = await upload(deflateRawSync(Buffer.alloc(64 * 1024 * 1024), { level: 1 }), COLUMNAR);
    expect([zeros.status, zeros.body.code]).toEqual([413, 'BODY_TOO_LARGE']);
    // Valid deflate, broken columnar bytes (a varint runs past the end), and broken deflate.
    const broken = await upload(deflateRawSync(Uint8Array.from([1, 2, 5, 1, 1, 1, 2])), COLUMNAR);
    expect([broken.status, broken.body.code]).toEqual([400, 'INVALID_COLUMNAR']);
    const notDeflate = await upload(Buffer.from('{"location":{}}'), COLUMNAR);
    expect([notDeflate.status, notDeflate.body.code]).toEqual([400, 'INVALID_ENCODING']);
    // Columnar bytes whose text is no JSON: the usual JSON refusal, after decoding.
    const notJson = await upload(deflateRawSync(Uint8Array.from([1, 0, 3, 0x7b, 0x7b, 0x7b])), COLUMNAR);
    expect(notJson.status).toBe(400);
    expect(JSON.stringify((await server.admin('/api/devices')).body)).toBe(devicesBefore);
  });
});
