import { describe, expect, it } from 'vitest';
import { createRandom } from '../src/simulate/random.js';
import {
  MAX_SPEED_MPS,
  MAX_STOP_MS,
  MIN_SPEED_MPS,
  MIN_STOP_MS,
  StreetTrack,
  type TrackFix,
} from '../src/simulate/street-grid.js';
import { defaultConfig, distanceMeters } from '@waypost/sdk/internal';

const ORIGIN = { latitude: 52.5163, longitude: 13.3777 };
const STEP_MS = 5000;

/** Two simulated hours of fixes, one every STEP_MS. */
function drive(seed: number, steps = 1440): TrackFix[] {
  const track = new StreetTrack(createRandom(seed), ORIGIN);
  const fixes: TrackFix[] = [];
  for (let i = 0; i < steps; i++) {
    track.advance(STEP_MS);
    fixes.push(track.fix());
  }
  return fixes;
}

/** Consecutive runs of fixes taken while stopped. */
function stops(fixes: TrackFix[]): TrackFix[][] {
  const runs: TrackFix[][] = [];
  let current: TrackFix[] = [];
  for (const fix of fixes) {
    if (!fix.driving) current.push(fix);
    else if (current.length > 0) {
      runs.push(current);
      current = [];
    }
  }
  return runs;
}

describe('the simulated street track', () => {
  it('is the same for the same seed and different for another', () => {
    expect(drive(7, 200)).toEqual(drive(7, 200));
    expect(drive(8, 200)).not.toEqual(drive(7, 200));
  });

  it('drives at plausible speeds and heads along the streets', () => {
    const driving = drive(3).filter((fix) => fix.driving);
    expect(driving.length).toBeGreaterThan(100);
    for (const fix of driving) {
      // The reported speed carries a little noise around the 5-15 m/s the vehicle keeps.
      expect(fix.speed).toBeGreaterThanOrEqual(MIN_SPEED_MPS - 1.5);
      expect(fix.speed).toBeLessThanOrEqual(MAX_SPEED_MPS + 1.5);
      expect([0, 90, 180, 270]).toContain(fix.heading);
    }
  });

  it('moves between fixes no faster than its top speed allows (plus GPS noise)', () => {
    const fixes = drive(4);
    for (let i = 1; i < fixes.length; i++) {
      expect(distanceMeters(fixes[i - 1]!, fixes[i]!)).toBeLessThan((MAX_SPEED_MPS * STEP_MS) / 1000 + 30);
    }
  });

  it('stops for longer than the SDK stopTimeout, within its stationaryRadius', () => {
    const { stopTimeout, stationaryRadius } = defaultConfig().geolocation;
    expect(MIN_STOP_MS).toBeGreaterThan(stopTimeout * 60_000);
    const runs = stops(drive(5, 4000));
    expect(runs.length).toBeGreaterThan(2);
    for (const run of runs.slice(1, -1)) {
      const durationMs = run.length * STEP_MS;
      expect(durationMs).toBeGreaterThanOrEqual(MIN_STOP_MS - STEP_MS);
      expect(durationMs).toBeLessThanOrEqual(MAX_STOP_MS + STEP_MS);
      for (const fix of run) expect(distanceMeters(run[0]!, fix)).toBeLessThan(stationaryRadius);
      expect(run.every((fix) => fix.speed === 0)).toBe(true);
    }
  });
});
