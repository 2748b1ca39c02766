// Spec 3's record states where the Node adapter is part of the row: the lock kept in the SQLite
// database (two instances on one file) and a refused connection on a real socket. The engine's
// state table itself is tested in packages/sdk/test/record-states.test.ts, on the test kit.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { at, openSdk, startHarness, tempDir, uuidsOf } from './support/harness.js';
import { closedPortUrl } from './support/scripted-server.js';

const manual = { http: { autoSync: false } };

describe('spec 3 record states, on SQLite and a socket', () => {
  it('two instances on one database file never take the same record (the lock is in the database)', async () => {
    const file = join(tempDir(), 'shared.db');
    const { bg: first, server } = await startHarness(manual, { database: file, maxRequests: 50 });
    server.setDefault({ status: 200, delayMs: 30 });
    const inserted = [];
    for (let i = 0; i < 8; i++) inserted.push((await first.store.insertLocation(at(i))).uuid);
    const second = await openSdk({ database: file });
    await second.ready({ http: { url: server.url, autoSync: false } });
    await Promise.all([first.sync(), second.sync(), first.sync(), second.sync()]);
    const sent = server.requests.flatMap((r) => uuidsOf(r.body));
    expect(sent.sort()).toEqual(inserted.sort());
  });

  it('locked -> stored on a closed port (connection refused), delivered once the url works', async () => {
    const { bg, server, http } = await startHarness(manual);
    await bg.setConfig({ http: { url: await closedPortUrl() } });
    await bg.store.insertLocation(at(0));
    expect(await bg.sync()).toEqual([]);
    expect(http).toEqual([expect.objectContaining({ success: false, status: 0 })]);
    expect(await bg.getCount()).toBe(1);
    await bg.setConfig({ http: { url: server.url } });
    expect(await bg.sync()).toHaveLength(1);
  });
});
