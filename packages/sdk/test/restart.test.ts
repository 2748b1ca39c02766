import { describe, expect, it } from 'vitest';
import type { BackgroundGeolocation, HeartbeatEvent } from '@waypost/sdk';
import type { Store } from '@waypost/sdk/internal';
import { createMemoryStore, ManualClock } from '@waypost/sdk/testing';
import { openedEngine } from './support/engine.js';

/** Opens the engine on `store` as a process would after a restart (`bootId` names the host's boot). */
async function open(store: Store, bootId: string, clock = new ManualClock()): Promise<BackgroundGeolocation> {
  return (await openedEngine({ store, bootId, clock })).bg;
}

async function trackedThenClosed(app: { stopOnTerminate?: boolean; startOnBoot?: boolean }) {
  const store = createMemoryStore();
  const first = await open(store, 'boot-1');
  await first.ready({ app });
  await first.start();
  // The heartbeat carries the last known location (the anchor's HeartbeatEvent): give it one.
  await first.recordLocation({ latitude: 45.5, longitude: -73.6, accuracy: 5 });
  await first.close();
  return store;
}

describe('restarts and reboots (app.stopOnTerminate, app.startOnBoot)', () => {
  it('stopOnTerminate true (the default): tracking does not resume after a restart', async () => {
    const store = await trackedThenClosed({});
    const second = await open(store, 'boot-1');
    await second.ready({ reset: false });
    expect((await second.getState()).enabled).toBe(false);
    await second.close();
  });

  it('stopOnTerminate false: tracking resumes, heartbeats included', async () => {
    const store = await trackedThenClosed({ stopOnTerminate: false });
    const clock = new ManualClock();
    const second = await open(store, 'boot-1', clock);
    const beats: HeartbeatEvent[] = [];
    second.onHeartbeat((event) => beats.push(event));
    await second.ready({ reset: false });
    expect((await second.getState()).enabled).toBe(true);
    await clock.advance(60_000);
    expect(beats).toHaveLength(1);
    expect(beats[0]!.location.coords).toMatchObject({ latitude: 45.5, longitude: -73.6 });
    expect(beats[0]!.timestamp).toBe(new Date(clock.now()).toISOString());
    await second.close();
  });

  it('startOnBoot: tracking resumes after a reboot, not after a mere restart', async () => {
    const store = await trackedThenClosed({ startOnBoot: true });
    const restarted = await open(store, 'boot-1');
    await restarted.ready({ reset: false });
    expect((await restarted.getState()).enabled).toBe(false);
    await restarted.start();
    await restarted.close();

    const rebooted = await open(store, 'boot-2');
    await rebooted.ready({ reset: false });
    expect((await rebooted.getState()).enabled).toBe(true);
    await rebooted.close();
  });

  it('a saved configuration that no longer validates (edited by hand) opens with the defaults and says so', async () => {
    const store = createMemoryStore();
    const first = await open(store, 'boot-1');
    await first.ready({ http: { url: 'http://127.0.0.1:9/x', autoSync: false } });
    await first.store.insertLocation({ latitude: 1, longitude: 2 });
    await first.close();
    await store.kv.set('config', JSON.stringify({ config: { http: { timeout: 'soon' } } }));

    const second = await open(store, 'boot-1');
    expect((await second.getState()).http).toMatchObject({ timeout: 60_000 });
    expect(second.config.current.http.url).toBeNull();
    expect(await second.getCount()).toBe(1);
    expect(await second.logger.getLog()).toMatch(/saved configuration ignored, defaults used: http\.timeout/);
    await second.close();
  });
});
