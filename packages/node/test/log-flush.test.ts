import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createBackgroundGeolocation,
  LOG_FLUSH_DELAY_MS,
  ManualNetwork,
  openSqliteStore,
  type Store,
} from '@waypost/node';
import { at, tempDir } from './support/harness.js';

/** A store whose log appends (one SQLite transaction each) are recorded. */
function recordingStore(file: string): { store: Store; appends: string[][] } {
  const inner = openSqliteStore(file);
  const appends: string[][] = [];
  const store: Store = {
    ...inner,
    log: {
      ...inner.log,
      append: (entries) => {
        appends.push(entries.map((e) => e.message));
        return inner.log.append(entries);
      },
    },
  };
  return { store, appends };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('the SDK log on Node: written in batches, not once per event-loop turn', () => {
  it('lines wait LOG_FLUSH_DELAY_MS after the first of them, then go in one transaction', async () => {
    const { store, appends } = recordingStore(':memory:');
    const bg = await createBackgroundGeolocation({ store, network: new ManualNetwork('wifi') });
    await bg.ready({ http: { autoSync: false } });
    await bg.logger.getLog(); // what opening logged is written: only what follows counts
    // The timer opening's lines started ends (it finds nothing left) before timers are faked.
    await new Promise((resolve) => setTimeout(resolve, LOG_FLUSH_DELAY_MS * 2));
    const written = appends.length;

    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    // Each insert is a turn of its own (a timer between them): written each turn, they were one
    // transaction each, a third of the commits of a drain of one record per request.
    const uuids: string[] = [];
    for (let i = 0; i < 3; i++) {
      uuids.push((await bg.store.insertLocation(at(i))).uuid);
      await vi.advanceTimersByTimeAsync(1);
    }
    await vi.advanceTimersByTimeAsync(LOG_FLUSH_DELAY_MS - 4);
    expect(appends.length - written).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(appends.slice(written)).toHaveLength(1);
    for (const uuid of uuids) expect(appends.at(-1)!.join('\n')).toContain(`INSERT ${uuid}`);
    vi.useRealTimers();
    await bg.close();
  });

  it('close() writes the lines still waiting: none is lost to the delay', async () => {
    const file = join(tempDir(), 'log.db');
    const bg = await createBackgroundGeolocation({ database: file, network: new ManualNetwork('wifi') });
    await bg.ready({ http: { autoSync: false } });
    const { uuid } = await bg.store.insertLocation(at(0));
    await bg.close();
    const reopened = openSqliteStore(file);
    const messages = (await reopened.log.read({})).map((e) => e.message);
    await reopened.close();
    expect(messages.join('\n')).toContain(`INSERT ${uuid}`);
  });
});
