// The facade (issue 18 item 3): a plain object assembled from method groups, its preconditions
// applied from GUARD_TABLE, its subscriptions generated from EVENT_TABLE.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it, onTestFinished } from 'vitest';
import { BackgroundGeolocation } from '../src/background-geolocation.js';
import { ManualClock } from '../src/clock/manual-clock.js';
import { EVENT_TABLE } from '../src/facade/event-table.js';
import { applyGuards, GUARD_TABLE } from '../src/facade/guard-table.js';
import { mergeGroups } from '../src/facade/merge-groups.js';
import { createFetchTransport } from '../src/http/fetch-transport.js';
import { ManualNetwork } from '../src/network/manual-network.js';
import type { Location } from '../src/records/location.js';
import { createMemoryStore } from '../src/store/memory-store.js';

const T0 = Date.UTC(2026, 0, 1);

async function open() {
  const bg = await BackgroundGeolocation.open({
    store: createMemoryStore(),
    // Never called: nothing here has an http.url.
    transport: createFetchTransport({ fetch: () => Promise.reject(new Error('no network in this test')) }),
    network: new ManualNetwork('wifi'),
    clock: new ManualClock(T0),
  });
  let closed = false;
  onTestFinished(() => (closed ? undefined : bg.close()));
  return { bg, close: () => ((closed = true), bg.close()) };
}

/** The method `path` ('store.sync') names on the facade. */
function methodAt(bg: object, path: string): (...args: unknown[]) => unknown {
  const [first, second] = path.split('.') as [string, string | undefined];
  const owner = (second === undefined ? bg : (bg as Record<string, unknown>)[first]) as Record<string, unknown>;
  return owner[second ?? first] as (...args: unknown[]) => unknown;
}

function record(fields: Partial<Location> = {}): Location {
  return {
    uuid: 'r1',
    timestamp: new Date(T0 - 1000).toISOString(),
    is_moving: false,
    odometer: 0,
    coords: { latitude: 45, longitude: -73, accuracy: 5, speed: -1, heading: -1, altitude: -1, altitude_accuracy: -1 },
    activity: { type: 'still', confidence: 100 },
    battery: { level: -1, is_charging: false },
    extras: {},
    ...fields,
  } as Location;
}

describe('the facade', () => {
  it('is a plain object whose methods are its own properties, so they work detached', async () => {
    const { bg } = await open();
    expect(Object.getPrototypeOf(bg)).toBe(Object.prototype);
    for (const row of Object.values(EVENT_TABLE)) expect(Object.hasOwn(bg, row.method)).toBe(true);
    const { ready, insertLocation, getCount, getState } = bg;
    await ready({ http: { autoSync: false } });
    await insertLocation({ latitude: 45, longitude: -73 });
    expect(await getCount()).toBe(1);
    expect((await getState()).http.autoSync).toBe(false);
  });

  it('applies every GUARD_TABLE entry: on a closed instance each rejects CLOSED before doing anything', async () => {
    const { bg, close } = await open();
    await bg.ready({});
    await close();
    for (const [path, rule] of Object.entries(GUARD_TABLE)) {
      const method = methodAt(bg, path);
      // `true` satisfies changePace's `when`; every other guard ignores the arguments.
      if (typeof rule === 'object' && 'sync' in rule) {
        expect(() => method(true), path).toThrow(expect.objectContaining({ code: 'CLOSED' }));
      } else {
        await expect(method(true), path).rejects.toMatchObject({ code: 'CLOSED' });
      }
    }
  });

  it('checks tracking before recordLocation/changePace, and changePace checks its argument first', async () => {
    const { bg } = await open();
    await bg.ready({});
    await expect(bg.recordLocation({ latitude: 45, longitude: -73 })).rejects.toMatchObject({ code: 'NOT_STARTED' });
    await expect(bg.changePace(true)).rejects.toMatchObject({ code: 'NOT_STARTED' });
    await expect(bg.changePace('yes' as unknown as boolean)).rejects.toMatchObject({ code: 'INVALID_CONFIG' });
    await bg.start();
    await expect(bg.changePace(true)).resolves.toMatchObject({ isMoving: true });
  });

  it('checks preconditions only through the guard table: no method group asserts a state itself', () => {
    const dir = new URL('../src/facade/', import.meta.url);
    const groups = readdirSync(dir).filter((name) => name.endsWith('-group.ts'));
    expect(groups.length).toBeGreaterThan(5);
    const asserting = groups.filter((name) =>
      /\bassert(Open|Ready|Started)\b/.test(readFileSync(new URL(name, dir), 'utf8')),
    );
    expect(asserting).toEqual([]);
  });

  it('refuses a guard for a method the facade does not have', () => {
    const checks = { open: () => {}, started: () => {} };
    expect(() => applyGuards({ sync: 1 }, { sync: 'open' } as never, checks)).toThrow(/"sync" is not a facade method/);
    expect(() => applyGuards({ store: {} }, { 'store.sync': 'open' } as never, checks)).toThrow(/"store.sync"/);
  });

  it('merges groups into own properties, keeping getters live and refusing a member defined twice', () => {
    let value = 1;
    const merged = mergeGroups(
      {
        get live() {
          return value;
        },
      },
      { f: () => value },
    );
    value = 2;
    expect([merged.live, merged.f()]).toEqual([2, 2]);
    expect(() => mergeGroups({ f: () => 1 }, { f: () => 2 })).toThrow(/two method groups define "f"/);
  });
});

describe('the events generated from EVENT_TABLE', () => {
  it('deliver the anchor payloads by on* method and by addListener name, and removeListeners ends both', async () => {
    const { bg } = await open();
    const seen: string[] = [];
    for (const [name, row] of Object.entries(EVENT_TABLE)) {
      (bg[row.method] as (cb: () => void) => unknown)(() => seen.push(`${row.method}`));
      bg.addListener(name, () => seen.push(`addListener ${name}`));
    }
    // The SDK's own listener on the engine's events is not the application's.
    let own = 0;
    bg.events.on('enabledchange', () => own++);
    bg.events.emit('enabledchange', true);
    bg.events.emit('http', { success: true, isSuccess: true, status: 200, responseText: '', uuids: [] });
    expect(seen).toEqual(['onEnabledChange', 'addListener enabledchange', 'onHttp', 'addListener http']);
    await bg.removeListeners();
    seen.length = 0;
    bg.events.emit('enabledchange', false);
    expect([seen, own]).toEqual([[], 2]);
  });

  it('skip what an adapter has no payload for, and remember per subscription (activitychange)', async () => {
    const { bg } = await open();
    const motion: unknown[] = [];
    const activities: string[] = [];
    bg.onMotionChange((event) => motion.push(event));
    bg.onActivityChange((event) => activities.push(`a:${event.activity}`));
    // No position known yet: the anchor's MotionChangeEvent needs one.
    bg.events.emit('motionchange', { isMoving: true, location: null });
    expect(motion).toEqual([]);
    bg.events.emit('location', record());
    bg.events.emit('location', record({ uuid: 'r2' }));
    bg.onActivityChange((event) => activities.push(`b:${event.activity}`));
    bg.events.emit('location', record({ uuid: 'r3', activity: { type: 'walking', confidence: 80 } }));
    expect(activities).toEqual(['a:still', 'a:walking', 'b:walking']);
  });

  it('refuse an unknown name, accept silent ones, and replace a callback added twice', async () => {
    const { bg } = await open();
    expect(() => bg.addListener('nonsense', () => {})).toThrow(expect.objectContaining({ code: 'NOT_SUPPORTED' }));
    expect(() => bg.addListener('toString', () => {})).toThrow(expect.objectContaining({ code: 'NOT_SUPPORTED' }));
    bg.addListener('schedule', () => {});
    let calls = 0;
    const cb = () => calls++;
    bg.addListener('enabledchange', cb);
    bg.addListener('enabledchange', cb);
    bg.events.emit('enabledchange', true);
    bg.removeListener('enabledchange', cb);
    bg.events.emit('enabledchange', false);
    expect(calls).toBe(1);
  });
});
