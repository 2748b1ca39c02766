import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  createNmeaFileProvider,
  createNmeaSerialProvider,
  ManualClock,
  systemClock,
  type LocationInput,
} from '@waypost/node';
import { tempDir } from '../support/harness.js';
import { Arrivals, Signal } from '../support/arrivals.js';
import { epochSentences, straightTrack } from './support/nmea-writer.js';

const PTY_DEVICE = fileURLToPath(new URL('./support/pty-device.py', import.meta.url));

describe('NMEA from a file', () => {
  it('replays epochs at their recorded pace on the injected clock, then ends, counting what it refused', async () => {
    const track = straightTrack(3, Date.UTC(2026, 4, 17, 9, 0, 0), 2_000);
    const path = join(tempDir(), 'drive.nmea');
    const lines = track.flatMap((p) => epochSentences(p));
    lines.splice(2, 0, '$GPGGA,garbage*00', '\u00ff\u00fe');
    writeFileSync(path, lines.join('\r\n')); // no final newline: the last line still counts
    const clock = new ManualClock(Date.UTC(2030, 0, 1));
    const provider = createNmeaFileProvider({ path, speed: 1, clock });
    const got = new Arrivals<{ at: number; fix: LocationInput }>();
    const ended = new Signal();
    await provider.start(
      (fix) => got.push({ at: clock.now() - Date.UTC(2030, 0, 1), fix }),
      () => undefined,
      ended.set,
    );
    await got.count(1);
    await clock.advance(1_999);
    expect(got.items).toHaveLength(1);
    await clock.advance(2_001);
    await ended.happened;
    expect(got.items.map((g) => [g.at, g.fix.timestamp])).toEqual(track.map((p, i) => [i * 2_000, p.time]));
    expect(provider.stats).toMatchObject({ fixes: 3, badChecksum: 1, malformed: 1 });
  });
});

describe('NMEA from a serial device (a pseudo-terminal)', () => {
  it('reads fixes after setting the line speed, and reports the device going away', async () => {
    const device = spawn('/usr/bin/python3', [PTY_DEVICE], { stdio: ['pipe', 'pipe', 'inherit'] });
    onTestFinished(() => void device.kill('SIGKILL'));
    const path = await new Promise<string>((resolve) =>
      device.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim())),
    );
    const provider = createNmeaSerialProvider({ path, baud: 9600, clock: systemClock });
    onTestFinished(() => provider.stop());
    const fixes = new Arrivals<LocationInput>();
    const errors = new Arrivals<Error & { code?: string }>();
    await provider.start(fixes.push, errors.push);
    expect(provider.name).toBe(`nmea ${path} at 9600 baud`);
    const track = straightTrack(3);
    // Written once, opened or not: the raw pty keeps what arrives before the reader is there.
    device.stdin.write(track.flatMap((p) => epochSentences(p)).join('\r\n') + '\r\n');
    // The last epoch ends only when another begins (or the device goes away): two at least.
    await fixes.count(2);
    expect(fixes.items[0]!.coords).toMatchObject({ latitude: expect.closeTo(track[0]!.latitude, 6), accuracy: 2.77 });

    device.stdin.end(); // unplugged
    await errors.some((e) => e.code === 'SOURCE_LOST');
    const retry = await errors.some((e) => e.code === 'SOURCE_UNAVAILABLE');
    expect(retry.message).toContain(path);
  });
});
