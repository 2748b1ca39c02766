// close() on the Node adapter: an automatic upload never starts after close() resolved, with the
// SQLite store and a socket. The rest of close()'s contract: packages/sdk/test/lifecycle.test.ts.
import { describe, it } from 'vitest';
import { checkNoUploadAfterClose } from '../../sdk/test/contract/close-cases.js';
import { startHarness } from './support/harness.js';

describe('close()', () => {
  it('with the SQLite store: an automatic upload never starts after close() has resolved', async () => {
    await checkNoUploadAfterClose(await startHarness());
  });
});
