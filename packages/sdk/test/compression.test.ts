// Issue 20: upload bodies are gzipped when the server has said it takes gzip (http.compress
// 'auto', the default), always ('gzip') or never ('none'); a 415 or 400 to a compressed body sends
// the same batch again plain at once and keeps that URL plain. Issue 34: in the columnar coding
// when the server has said x-waypost-columnar (version 2 of the bytes when it said
// x-waypost-columnar-2), falling back to the older version, then gzip, when it refuses it. Against
// Waypost's own server: packages/node/test/compression.test.ts.
import { gunzipSync, inflateRawSync } from 'node:zlib';
import { decodeColumnar } from '@waypost/sdk/internal';
import { describe, expect, it } from 'vitest';
import { at, uuidsOf, type RecordedRequest, type Reply } from '@waypost/sdk/testing';
import { engine } from './support/engine.js';

const ADVERTISES: Reply = { status: 200, json: {}, headers: { 'accept-encoding': 'gzip, deflate, br' } };

const gzipped = (r: RecordedRequest) => r.headers['content-encoding'] === 'gzip';
const coding = (r: RecordedRequest) => r.headers['content-encoding'] ?? 'none';
/** The JSON text a request carried, decoded as a server would. */
function bodyOf(r: RecordedRequest): string {
  if (coding(r).startsWith('x-waypost-columnar')) return decodeColumnar(inflateRawSync(r.raw), 1 << 20);
  return new TextDecoder().decode(gzipped(r) ? gunzipSync(r.raw) : r.raw);
}
/** The uuids a request carried, whatever its coding. */
const carried = (r: RecordedRequest) => uuidsOf(JSON.parse(bodyOf(r)));
/** The columnar version byte a request carried. */
const version = (r: RecordedRequest) => inflateRawSync(r.raw)[0];
const V1 = 'x-waypost-columnar';
const V2 = 'x-waypost-columnar-2';
/** What Waypost's server says since version 2 of the coding. */
const WAYPOST: Reply = {
  status: 200,
  json: {},
  headers: { 'accept-encoding': `gzip, deflate, br, ${V1}, ${V2}` },
};
/** What it said with version 1 only. */
const WAYPOST_V1: Reply = { status: 200, json: {}, headers: { 'accept-encoding': `gzip, deflate, br, ${V1}` } };

async function recordThree(config: object, replies: (Reply | ((r: RecordedRequest) => Reply))[] = []) {
  const harness = await engine(config, { replies });
  harness.server.setDefault(ADVERTISES);
  await harness.bg.start();
  const uuids: string[] = [];
  for (let i = 0; i < 3; i++) {
    uuids.push((await harness.bg.recordLocation(at(i))).uuid);
    await harness.bg.idle();
  }
  return { ...harness, uuids };
}

describe('http.compress', () => {
  it('auto (the default): plain until the server says it takes gzip, then gzipped; every record delivered', async () => {
    const { server, uuids, bg } = await recordThree({});
    expect(bg.config.current.http.compress).toBe('auto');
    expect(server.requests.map(gzipped)).toEqual([false, true, true]);
    expect(server.requests.flatMap(carried)).toEqual(uuids);
  });

  it('auto against a server that never says it: every body plain, as it always was', async () => {
    const harness = await engine({}, { replies: [] }); // answers 200 {} without Accept-Encoding
    await harness.bg.start();
    for (let i = 0; i < 3; i++) {
      await harness.bg.recordLocation(at(i));
      await harness.bg.idle();
    }
    expect(harness.server.requests.map(gzipped)).toEqual([false, false, false]);
  });

  it("'gzip' compresses from the first request; 'none' never does, advertised or not", async () => {
    const always = await recordThree({ http: { compress: 'gzip' } });
    expect(always.server.requests.map(gzipped)).toEqual([true, true, true]);
    // The coding is gzip; the content is still JSON (issue 29: no test checked it).
    expect(always.server.requests.map((r) => r.headers['content-type'])).toEqual(Array(3).fill('application/json'));
    expect(always.server.requests.flatMap(carried)).toEqual(always.uuids);
    const never = await recordThree({ http: { compress: 'none' } });
    expect(never.server.requests.map(gzipped)).toEqual([false, false, false]);
  });

  it.each([415, 400])(
    '%i to a gzipped body: the same batch again plain at once, and plain from then on',
    async (status) => {
      const refuseGzip = (r: RecordedRequest): Reply => (gzipped(r) ? { status, json: {} } : ADVERTISES);
      const { server, uuids, http, bg } = await recordThree({ http: { compress: 'gzip' } }, [refuseGzip, refuseGzip]);
      server.setDefault(refuseGzip);
      expect(server.requests.map(gzipped)).toEqual([true, false, false, false]);
      expect(server.requests.filter((r) => !gzipped(r)).flatMap(carried)).toEqual(uuids);
      expect(http.map((e) => e.status)).toEqual([200, 200, 200]);
      expect(await bg.logger.getLog()).toMatch(
        new RegExp(`${status} to a gzipped body: .* gets plain bodies from now on`),
      );
    },
  );

  it('auto, to a server that says x-waypost-columnar-2: version 2 bodies that decode to the plain JSON text', async () => {
    const { server, uuids } = await recordThree({ http: { params: { device_id: 'd-1' } } }, [
      WAYPOST,
      WAYPOST,
      WAYPOST,
    ]);
    expect(server.requests.map(coding)).toEqual(['none', V2, V2]);
    expect(server.requests.slice(1).map(version)).toEqual([2, 2]);
    expect(server.requests.flatMap(carried)).toEqual(uuids);
    // The decoded body is the text the SDK sends uncoded: the record as stored, params after it.
    const [, second] = server.requests;
    expect(bodyOf(second!)).toMatch(/^\{"location":\{"uuid":"[^"]+","timestamp":"[^"]+",.*\},"device_id":"d-1"\}$/);
  });

  it('a server that says only x-waypost-columnar (before version 2) gets version 1 bodies, all delivered', async () => {
    const { server, uuids } = await recordThree({}, [WAYPOST_V1, WAYPOST_V1, WAYPOST_V1]);
    expect(server.requests.map(coding)).toEqual(['none', V1, V1]);
    expect(server.requests.slice(1).map(version)).toEqual([1, 1]);
    expect(server.requests.flatMap(carried)).toEqual(uuids);
  });

  it.each([400, 415])(
    '%i to a columnar body: the same batch again in version 1, then gzipped, at once; gzip from then on, nothing lost',
    async (status) => {
      const refuseColumnar = (r: RecordedRequest): Reply =>
        coding(r).startsWith(V1) ? { status, json: { code: 'INVALID_COLUMNAR' }, headers: WAYPOST.headers } : WAYPOST;
      const { server, uuids, http, bg } = await recordThree({}, [
        WAYPOST,
        refuseColumnar,
        refuseColumnar,
        refuseColumnar,
      ]);
      server.setDefault(refuseColumnar);
      expect(server.requests.map(coding)).toEqual(['none', V2, V1, 'gzip', 'gzip']);
      expect(server.requests.filter((r) => !coding(r).startsWith(V1)).flatMap(carried)).toEqual(uuids);
      expect(http.map((e) => e.status)).toEqual([200, 200, 200]);
      const log = await bg.logger.getLog();
      expect(log).toMatch(new RegExp(`${status} to a ${V2} body: .* gets ${V1} bodies from now on`));
      expect(log).toMatch(new RegExp(`${status} to a ${V1} body: .* gets gzipped bodies from now on`));
    },
  );

  it('a server from before issue 34 (gzip, deflate, br) and one that says nothing never get a columnar body', async () => {
    const before = await recordThree({}); // ADVERTISES: what Waypost's server said before the coding
    expect(before.server.requests.map(coding)).toEqual(['none', 'gzip', 'gzip']);
    const thirdParty = await engine({}, { replies: [] });
    await thirdParty.bg.start();
    for (let i = 0; i < 3; i++) {
      await thirdParty.bg.recordLocation(at(i));
      await thirdParty.bg.idle();
    }
    expect(thirdParty.server.requests.map(coding)).toEqual(['none', 'none', 'none']);
  });

  it('a body the coding would not give back byte for byte (a param JSON.parse moves first) goes gzipped, as built', async () => {
    const { server, uuids } = await recordThree({ http: { params: { '7': 'seven' } } }, [WAYPOST, WAYPOST, WAYPOST]);
    expect(server.requests.map(coding)).toEqual(['none', 'gzip', 'gzip']);
    expect(bodyOf(server.requests[1]!)).toMatch(/^\{"location":\{"uuid":.*\},"7":"seven"\}$/);
    expect(server.requests.flatMap(carried)).toEqual(uuids);
  });

  it("'gzip' never sends the columnar coding, even to a server that says it", async () => {
    const { server } = await recordThree({ http: { compress: 'gzip' } }, [WAYPOST, WAYPOST, WAYPOST]);
    expect(server.requests.map(coding)).toEqual(['gzip', 'gzip', 'gzip']);
  });
});
