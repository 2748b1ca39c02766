import { describe, expect, it } from 'vitest';
import type { MotionChangeEvent } from '@waypost/sdk';
import { MotionDetector } from '@waypost/sdk/internal';
import { ManualClock } from '@waypost/sdk/testing';
import { engine } from './support/engine.js';

const start = { latitude: 45.5, longitude: -73.6 };
/** `metres` east of the start (at this latitude one degree of longitude is about 77,900 m). */
const east = (metres: number) => ({
  latitude: start.latitude,
  longitude: start.longitude + metres / 77_900,
  accuracy: 5,
});
const MINUTE = 60_000;

describe('motion detection from locations (geolocation.stationaryRadius, stopTimeout)', () => {
  it('moving once the device leaves stationaryRadius; stationary after stopTimeout without leaving it; both flush the queue', async () => {
    const clock = new ManualClock(Date.UTC(2026, 10, 22, 8));
    // A threshold of 100 would hold every upload: only motion changes may flush (spec 3 rule 3).
    const { bg, server } = await engine({ http: { autoSyncThreshold: 100 } }, { clock });
    const changes: MotionChangeEvent[] = [];
    bg.onMotionChange((event) => changes.push(event));
    await bg.start();

    await bg.recordLocation(east(0));
    await clock.advance(MINUTE);
    await bg.recordLocation(east(10)); // still inside 25 m: stationary
    expect(changes).toEqual([]);
    expect(server.requests).toHaveLength(0);

    await clock.advance(MINUTE);
    await bg.recordLocation(east(200));
    expect(changes.map((c) => c.isMoving)).toEqual([true]);
    expect(changes[0]!.location).toMatchObject({ event: 'motionchange', is_moving: true });
    // The flush started by the transition delivers all three records despite the threshold.
    await bg.idle();
    expect(await bg.getCount()).toBe(0);
    const delivered = server.requests.length;

    // Driving on: every location leaves the last stop candidate.
    for (let m = 400; m <= 2000; m += 400) {
      await clock.advance(MINUTE);
      await bg.recordLocation(east(m));
    }
    expect((await bg.getState()).isMoving).toBe(true);
    expect(server.requests.length).toBe(delivered);

    // A stop at 2000 m: a location within the radius a minute later does not restart the stop,
    // and the stop timer runs out 5 minutes after the arrival.
    await clock.advance(MINUTE);
    await bg.recordLocation(east(2010));
    await clock.advance(3 * MINUTE);
    expect(changes.map((c) => c.isMoving)).toEqual([true]);
    await clock.advance(MINUTE + 1000);
    expect(changes.map((c) => c.isMoving)).toEqual([true, false]);
    expect(changes[1]!.location).toMatchObject({ event: 'motionchange', is_moving: false });
    await bg.idle();
    expect(await bg.getCount()).toBe(0);
    expect((await bg.getState()).isMoving).toBe(false);
    expect((await bg.getState()).odometer).toBeGreaterThan(2000);
    expect((await bg.getState()).odometer).toBeLessThan(2030);
  });

  it('the detector on its own: both sides of each boundary', () => {
    const settings = { stationaryRadius: 25, stopTimeoutMinutes: 5 };
    const detector = new MotionDetector(false);
    expect(detector.observe(east(0), 0, settings)).toBeNull();
    expect(detector.observe(east(24), 1000, settings)).toBeNull();
    expect(detector.observe(east(26), 2000, settings)).toBe('moving');
    expect(detector.timeout(2000 + 5 * MINUTE - 1, settings)).toBeNull();
    expect(detector.timeout(2000 + 5 * MINUTE, settings)).toBe('stationary');
    expect(detector.isMoving).toBe(false);
  });

  it('stopTimeout and stationaryRadius come from the geolocation group', async () => {
    const clock = new ManualClock(Date.UTC(2026, 10, 22, 8));
    const { bg } = await engine(
      { http: { autoSync: false }, geolocation: { stationaryRadius: 500, stopTimeout: 1 } },
      { clock },
    );
    await bg.start();
    await bg.recordLocation(east(0));
    await bg.recordLocation(east(400));
    expect((await bg.getState()).isMoving).toBe(false);
    await bg.recordLocation(east(1000));
    expect((await bg.getState()).isMoving).toBe(true);
    await clock.advance(MINUTE);
    expect((await bg.getState()).isMoving).toBe(false);
  });

  it('a stopTimeout shortened while moving takes effect at the next location (the stop timer set earlier is not waited for)', async () => {
    const clock = new ManualClock(Date.UTC(2026, 10, 22, 8));
    const { bg } = await engine({ http: { autoSync: false }, geolocation: { stopTimeout: 5 } }, { clock });
    await bg.start();
    await bg.recordLocation(east(0));
    await bg.recordLocation(east(200));
    expect((await bg.getState()).isMoving).toBe(true);
    // Driving on for a while: each location pushes the stop back.
    for (let m = 400; m <= 1200; m += 400) {
      await clock.advance(MINUTE);
      await bg.recordLocation(east(m));
    }
    // Stopped at 1200 m: now a one-minute stopTimeout, and a location within the radius 10 s later.
    await bg.setConfig({ geolocation: { stopTimeout: 1 } });
    await clock.advance(10_000);
    await bg.recordLocation(east(1205));
    await clock.advance(MINUTE - 10_000 - 1000);
    expect((await bg.getState()).isMoving).toBe(true);
    await clock.advance(2000);
    expect((await bg.getState()).isMoving).toBe(false);
  });
});
