// close() on the Node adapter: an automatic upload never starts after close() resolved, with the
// SQLite store and a socket. The rest of close()'s contract: packages/sdk/test/lifecycle.test.ts.
import { describe, expect, it } from 'vitest';
import { checkNoUploadAfterClose } from '../../sdk/test/contract/close-cases.js';
import { openSdk, startHarness } from './support/harness.js';

describe('close()', () => {
  it('with the SQLite store: an automatic upload never starts after close() has resolved', async () => {
    // One upload is expected: an SDK that sends on and on fails at once (its close() is bounded).
    await checkNoUploadAfterClose(await startHarness({}, { maxRequests: 20 }));
  });

  it("with the SQLite store closed, queue and log reads reject CLOSED, not the driver's error", async () => {
    const bg = await openSdk();
    await bg.close();
    for (const read of [bg.getCount, bg.getLocations, bg.destroyLocations, bg.store.getCount, bg.logger.getLog]) {
      await expect(read()).rejects.toMatchObject({ code: 'CLOSED' });
    }
  });
});
