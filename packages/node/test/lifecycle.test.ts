// close() on the Node adapter: an automatic upload never starts after close() resolved, with the
// SQLite store and a socket. The rest of close()'s contract: packages/sdk/test/lifecycle.test.ts.
import { describe, expect, it, onTestFinished } from 'vitest';
import { at, openSdk } from './support/harness.js';
import { startScriptedServer } from './support/scripted-server.js';

describe('close()', () => {
  it('with the SQLite store: an automatic upload never starts after close() has resolved', async () => {
    const server = await startScriptedServer();
    onTestFinished(() => server.close());
    const bg = await openSdk();
    await bg.ready({ http: { url: server.url } });
    await bg.start();
    await bg.store.insertLocation(at(0));
    await bg.close();
    const seenAtClose = server.requests.length;
    await bg.idle();
    expect(server.requests).toHaveLength(seenAtClose);
  });
});
