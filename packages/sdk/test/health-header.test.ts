// The device health report's header (issue 31): an RFC 8941 Dictionary the server parses back to
// the same report; bounded, never free text, and whatever it cannot read is left out, not fatal.
import { describe, expect, it } from 'vitest';
import { parseDictionary } from 'structured-headers';
import {
  formatHealthHeader,
  MAX_HEALTH_HEADER_CHARS,
  parseHealthHeader,
  type HealthReport,
} from '@waypost/sdk/internal';

const FULL: HealthReport = {
  version: '0.1.0',
  clock: 1_795_000_000,
  queued: 12,
  oldestAge: 340,
  failure: { class: 'timeout', ago: 30 },
  hold: { kind: 'retry-after', for: 120 },
  network: 'cellular',
  wifiOnly: true,
  motion: { moving: false, for: 3600 },
  provider: 'ok',
  battery: { level: 0.54, charging: true },
  tracking: true,
  stopOnTerminate: false,
};

describe('the Waypost-Health header', () => {
  it('is a Structured Field Dictionary that reads back as the same report', () => {
    const value = formatHealthHeader(FULL);
    expect(value).toBe(
      'v="0.1.0", clock=1795000000, q=12, oldest=340, fail=timeout;ago=30, hold=retry-after;for=120, net=cellular, ' +
        'wifionly, motion=still;for=3600, provider=ok, batt=0.54;charging, track, sot=?0',
    );
    expect(parseDictionary(value).size).toBe(13);
    expect(parseHealthHeader(value)).toEqual({ ok: true, report: FULL });
    expect(value.length).toBeLessThan(MAX_HEALTH_HEADER_CHARS / 2);
  });

  it('says which hold ended since the last delivery, how long it held and how long ago it ended', () => {
    const back: HealthReport = {
      queued: 42,
      oldestAge: 900,
      was: { kind: 'offline', for: 880, ago: 3 },
      network: 'wifi',
    };
    const value = formatHealthHeader(back);
    expect(value).toBe('q=42, oldest=900, was=offline;for=880;ago=3, net=wifi');
    expect(parseHealthHeader(value)).toEqual({ ok: true, report: back });
    expect(parseHealthHeader('was=asleep;for=1;ago=1')).toEqual({ ok: true, report: {} });
  });

  it('an HTTP status rides on the failure; an empty report is an empty header', () => {
    const report: HealthReport = { failure: { class: 'server', ago: 5, status: 503 } };
    expect(formatHealthHeader(report)).toBe('fail=server;ago=5;status=503');
    expect(parseHealthHeader('fail=server;ago=5;status=503')).toEqual({ ok: true, report });
    expect(formatHealthHeader({})).toBe('');
  });

  it('names the device as its uploads do (dev), when the name is short and printable', () => {
    expect(formatHealthHeader({ device: 'truck-17' })).toBe('dev="truck-17"');
    expect(formatHealthHeader({ queued: 1, device: 'truck-17' })).toBe('q=1, dev="truck-17"');
    expect(parseHealthHeader('q=1, dev="truck-17"')).toEqual({ ok: true, report: { queued: 1, device: 'truck-17' } });
    expect(formatHealthHeader({ device: 'x'.repeat(65) })).toBe('');
    expect(formatHealthHeader({ device: 'lorry\n7' })).toBe('');
    expect(parseHealthHeader(`dev="${'x'.repeat(65)}"`)).toEqual({ ok: true, report: {} });
  });

  it('a version string is kept printable and short', () => {
    const value = formatHealthHeader({ version: `1.0\n${'x'.repeat(100)}` });
    expect(value).toBe(`v="1.0?${'x'.repeat(28)}"`);
  });

  it.each([
    ['not a dictionary', 'q=(((', 'not a Structured Field Dictionary'],
    ['too long', `q=1, x="${'a'.repeat(600)}"`, 'longer than 512'],
  ])('%s: ignored, with the reason', (_name, value, why) => {
    const parsed = parseHealthHeader(value);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? '' : parsed.why).toContain(why);
  });

  it('members of the wrong type or with unknown values are left out, the rest kept', () => {
    expect(
      parseHealthHeader(
        'q=-3, oldest=1.5, fail=meteor;ago=1, hold="wifi", net=satellite, batt=7, track=1, provider=ok, x=?1',
      ),
    ).toEqual({ ok: true, report: { provider: 'ok' } });
  });
});
