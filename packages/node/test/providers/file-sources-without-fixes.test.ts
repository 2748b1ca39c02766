// A file source that holds nothing to replay (an empty file, another format, a GPX of routes and
// waypoints) is an error with a code, not a replay of nothing that ends like a good one.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createGpxReplayProvider, createNmeaFileProvider, ManualClock, type LocationProvider } from '@waypost/node';
import { sentence } from './support/nmea-writer.js';

function file(name: string, text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'waypost-no-fixes-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** Runs the provider to its end; resolves with what it delivered and reported. */
function runToEnd(provider: LocationProvider) {
  return new Promise<{ fixes: number; errors: { code?: string; message: string }[] }>((resolve) => {
    let fixes = 0;
    const errors: { code?: string; message: string }[] = [];
    void provider.start(
      () => void fixes++,
      (error: Error & { code?: string }) => void errors.push({ code: error.code, message: error.message }),
      () => resolve({ fixes, errors }),
    );
  });
}

const ROUTE_GPX = `<?xml version="1.0"?>
<gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
  <wpt lat="45.5" lon="-73.5"><time>2026-05-17T09:00:00Z</time></wpt>
  <rte><rtept lat="45.5" lon="-73.5"/><rtept lat="45.6" lon="-73.5"/></rte>
</gpx>`;

describe('a file source without a fix to replay', () => {
  it.each([
    ['an empty file', '', /it is empty/],
    [
      'a text file that is not NMEA',
      'url: http://127.0.0.1:8080\nadmin token: x\n',
      /2 line\(s\) refused: 2 malformed/,
    ],
  ])('NMEA: %s is SOURCE_INVALID, then the source ends', async (_, text, why) => {
    const provider = createNmeaFileProvider({ path: file('input.nmea', text), speed: 0, clock: new ManualClock() });
    const { fixes, errors } = await runToEnd(provider);
    expect(fixes).toBe(0);
    expect(errors).toEqual([{ code: 'SOURCE_INVALID', message: expect.stringMatching(/no NMEA 0183 sentence/) }]);
    expect(errors[0]!.message).toMatch(why);
  });

  it('NMEA: sentences without a fix are a quiet sky, not an error', async () => {
    // What a receiver writes before its first fix: valid sentences with empty positions.
    const noFix = [sentence('GPRMC,090000.00,V,,,,,,,170526,,,N'), sentence('GPGGA,090000.00,,,,,0,00,99.99,,,,,,')];
    const provider = createNmeaFileProvider({
      path: file('quiet.nmea', noFix.join('\r\n') + '\r\n'),
      speed: 0,
      clock: new ManualClock(),
    });
    expect(await runToEnd(provider)).toEqual({ fixes: 0, errors: [] });
  });

  it('GPX: a file of waypoints and routes only is SOURCE_INVALID, then the source ends', async () => {
    const provider = createGpxReplayProvider({
      path: file('route.gpx', ROUTE_GPX),
      speed: 0,
      clock: new ManualClock(),
    });
    const { fixes, errors } = await runToEnd(provider);
    expect(fixes).toBe(0);
    expect(errors).toEqual([{ code: 'SOURCE_INVALID', message: expect.stringMatching(/route\.gpx: no track point/) }]);
  });
});
