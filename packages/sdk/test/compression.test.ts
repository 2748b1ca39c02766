// Issue 20: upload bodies are gzipped when the server has said it takes gzip (http.compress
// 'auto', the default), always ('gzip') or never ('none'); a 415 or 400 to a compressed body sends
// the same batch again plain at once and keeps that URL plain. Against Waypost's own server:
// packages/node/test/compression.test.ts.
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { at, uuidsOf, type RecordedRequest, type Reply } from '@waypost/sdk/testing';
import { engine } from './support/engine.js';

const ADVERTISES: Reply = { status: 200, json: {}, headers: { 'accept-encoding': 'gzip, deflate, br' } };

const gzipped = (r: RecordedRequest) => r.headers['content-encoding'] === 'gzip';
/** The uuids a request carried, whether its body was gzipped or not. */
const carried = (r: RecordedRequest) =>
  uuidsOf(JSON.parse(new TextDecoder().decode(gzipped(r) ? gunzipSync(r.raw) : r.raw)));

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
});
