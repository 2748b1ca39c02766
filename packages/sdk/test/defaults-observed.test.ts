// The defaults of http.maxBatchSize (-1: no limit) and http.autoSyncThreshold (0: every location)
// as the SDK behaves with them, not as a table says (issue 29: a changed default slipped past every
// test but the docs table's). The configuration leaves both unset.
import { describe, expect, it } from 'vitest';
import { at, uuidsOf } from '@waypost/sdk/testing';
import { engine } from './support/engine.js';

describe('defaults, observed', () => {
  it('maxBatchSize unset: sync() with batchSync sends the whole queue, 1,500 records, in one request', async () => {
    // One request is expected: an engine that resends the 1,500 records fails at once, named.
    const { bg, server } = await engine({ http: { batchSync: true, autoSync: false } }, { maxRequests: 5 });
    const uuids: string[] = [];
    for (let i = 0; i < 1500; i++) uuids.push(await bg.insertLocation(at(i)));
    const delivered = await bg.sync();
    expect(server.requests).toHaveLength(1);
    expect(uuidsOf(server.requests[0]!.body)).toEqual(uuids);
    expect(delivered).toHaveLength(1500);
    expect(bg.config.current.http.maxBatchSize).toBe(-1);
  });

  it('autoSyncThreshold unset: each recorded location is uploaded on its own, as soon as it is stored', async () => {
    const { bg, server } = await engine({}, { maxRequests: 10 });
    await bg.start();
    for (let i = 1; i <= 3; i++) {
      const { uuid } = await bg.recordLocation(at(i));
      await bg.idle();
      expect(server.requests, `after location ${i}`).toHaveLength(i);
      expect(uuidsOf(server.requests[i - 1]!.body)).toEqual([uuid]);
    }
    expect(await bg.getCount()).toBe(0);
    expect(bg.config.current.http.autoSyncThreshold).toBe(0);
  });
});
