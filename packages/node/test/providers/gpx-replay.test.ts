import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createGpxReplayProvider, ManualClock, parseGpxTrack, type LocationInput } from '@waypost/node';
import { Arrivals, Signal } from '../support/arrivals.js';

const T0 = Date.UTC(2026, 4, 17, 9, 0, 0);
const iso = (ms: number) => new Date(ms).toISOString();

/** Four points: 0 s, 10 s, 30 s, 60 s after T0, the second with GPX 1.0 speed/course. */
const GPX = `<?xml version="1.0" encoding="UTF-8"?>
<gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
  <trk><name>walk</name><trkseg>
    <trkpt lat="52.5200" lon="13.4050"><ele>34.0</ele><time>${iso(T0)}</time><hdop>0.8</hdop></trkpt>
    <trkpt lat="52.5201" lon="13.4050"><ele>35.0</ele><time>${iso(T0 + 10_000)}</time><speed>1.5</speed><course>10</course></trkpt>
    <trkpt lat="52.5203" lon="13.4050"><time>${iso(T0 + 30_000)}</time></trkpt>
    <trkpt lat="999" lon="13.4050"><time>${iso(T0 + 40_000)}</time></trkpt>
    <trkpt lat="52.5203" lon="13.4053"><time>${iso(T0 + 60_000)}</time></trkpt>
  </trkseg></trk>
</gpx>`;

/** The track in a folder of its own, removed when the test ends (whatever its outcome). */
function gpxFile(text = GPX): string {
  const dir = mkdtempSync(join(tmpdir(), 'waypost-gpx-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'track.gpx');
  writeFileSync(path, text);
  return path;
}

describe('GPX track points', () => {
  it('become recordLocation() input with their times, elevation, accuracy, and speed/heading derived when absent', () => {
    const fixes = parseGpxTrack(GPX);
    expect(fixes).toHaveLength(4); // the point with lat 999 is skipped
    expect(fixes[0]).toEqual({
      timestamp: T0,
      coords: {
        latitude: 52.52,
        longitude: 13.405,
        accuracy: 4,
        speed: -1,
        heading: -1,
        altitude: 34,
        altitude_accuracy: -1,
      },
    });
    expect(fixes[1]!.coords).toMatchObject({ speed: 1.5, heading: 10, altitude: 35 });
    // 0.0002 degrees of latitude (~22.2 m) in 20 s, due north.
    expect(fixes[2]!.coords).toMatchObject({ speed: expect.closeTo(1.11, 2), heading: 0, altitude: -1, accuracy: -1 });
    expect(fixes[3]!.coords!.heading).toBeCloseTo(90, 0);
  });

  it('refuses what is not GPX, and never expands entities', () => {
    expect(() => parseGpxTrack('{"not":"xml"}')).toThrow(/not a GPX file/);
    const bomb = `<?xml version="1.0"?><!DOCTYPE gpx [<!ENTITY a "${'x'.repeat(100)}"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>
<gpx><trk><trkseg><trkpt lat="1" lon="2"><name>&b;</name></trkpt></trkseg></trk></gpx>`;
    expect(parseGpxTrack(bomb)).toHaveLength(1);
  });
});

describe('GPX replay timing (injected clock)', () => {
  async function run(speed: number) {
    const clock = new ManualClock(Date.UTC(2030, 0, 1));
    const provider = createGpxReplayProvider({ path: gpxFile(), speed, clock });
    const got = new Arrivals<{ at: number; fix: LocationInput }>();
    const ended = new Signal();
    const errors: Error[] = [];
    await provider.start(
      (fix) => got.push({ at: clock.now() - Date.UTC(2030, 0, 1), fix }),
      (e) => errors.push(e),
      ended.set,
    );
    return { clock, provider, got, ended, errors };
  }

  it('at the recorded pace: each point when its offset has passed, not before', async () => {
    const r = await run(1);
    await r.got.count(1);
    await r.clock.advance(9_999);
    expect(r.got.items).toHaveLength(1);
    await r.clock.advance(1);
    expect(r.got.items.map((g) => g.at)).toEqual([0, 10_000]);
    await r.clock.advance(50_000);
    expect(r.got.items.map((g) => g.at)).toEqual([0, 10_000, 30_000, 60_000]);
    // The fixes keep their recorded times, not the replay's.
    expect(r.got.items.map((g) => g.fix.timestamp)).toEqual([T0, T0 + 10_000, T0 + 30_000, T0 + 60_000]);
    await r.ended.happened;
    expect(r.errors).toEqual([]);
  });

  it('ten times faster, and 0 = as fast as possible', async () => {
    const fast = await run(10);
    await fast.got.count(1);
    await fast.clock.advance(6_000);
    expect(fast.got.items.map((g) => g.at)).toEqual([0, 1_000, 3_000, 6_000]);
    const instant = await run(0);
    await instant.ended.happened;
    expect(instant.got.items.map((g) => g.at)).toEqual([0, 0, 0, 0]);
  });

  it('stop() ends a replay in the middle without delivering more and without onEnd', async () => {
    const r = await run(1);
    await r.got.count(1);
    await r.provider.stop();
    await r.clock.advance(120_000);
    expect(r.got.items).toHaveLength(1);
    expect(r.ended.isSet).toBe(false);
  });

  it('a missing file is reported as SOURCE_INVALID and the source ends', async () => {
    const clock = new ManualClock();
    const provider = createGpxReplayProvider({ path: '/nonexistent/track.gpx', clock });
    const errors: (Error & { code?: string })[] = [];
    const ended = new Signal();
    await provider.start(
      () => undefined,
      (e) => errors.push(e),
      ended.set,
    );
    await ended.happened;
    expect(errors[0]).toMatchObject({ code: 'SOURCE_INVALID', message: expect.stringMatching(/track\.gpx.*ENOENT/) });
  });
});
