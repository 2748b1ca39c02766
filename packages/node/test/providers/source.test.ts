import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSource, readBattery, reconnectDelayMs, RECONNECT_MAX_MS } from '@waypost/node';

describe('--source forms', () => {
  it.each([
    ['gpsd://127.0.0.1:2947', { kind: 'gpsd', host: '127.0.0.1', port: 2947 }],
    ['gpsd://', { kind: 'gpsd', host: '127.0.0.1', port: 2947 }],
    ['gpsd://[::1]:3000', { kind: 'gpsd', host: '::1', port: 3000 }],
    ['nmea:/dev/ttyUSB0', { kind: 'nmea-serial', path: '/dev/ttyUSB0', baud: 4800 }],
    ['nmea:/dev/ttyACM0?baud=9600', { kind: 'nmea-serial', path: '/dev/ttyACM0', baud: 9600 }],
    ['nmea-tcp://gps.local:10110', { kind: 'nmea-tcp', host: 'gps.local', port: 10110 }],
    ['nmea-file:./drive.nmea', { kind: 'nmea-file', path: './drive.nmea' }],
    ['nmea-file:-', { kind: 'nmea-file', path: '-' }],
    ['gpx:/data/ride.gpx', { kind: 'gpx', path: '/data/ride.gpx' }],
  ])('%s', (text, spec) => {
    expect(parseSource(text)).toEqual(spec);
  });

  it.each([
    ['/dev/ttyUSB0', /is not one of: gpsd:\/\/HOST:PORT/],
    ['gpsd://host:99999', /port 99999 is not 1-65535/],
    ['nmea-tcp://host', /a port is required/],
    ['nmea:ttyUSB0', /expected a device path/],
    ['nmea:/dev/ttyUSB0?baud=4801', /baud "4801" is not one of/],
    ['nmea:/dev/ttyUSB0?speed=4800', /unknown option "speed"/],
    ['gpx:', /a file path is required/],
    ['gpx:-', /GPX cannot be read from standard input/],
  ])('%s is refused with a reason', (text, reason) => {
    expect(() => parseSource(text)).toThrow(reason);
  });
});

describe('reconnect backoff', () => {
  it('doubles from 500 ms and stops at the cap', () => {
    expect([0, 1, 2, 3].map(reconnectDelayMs)).toEqual([500, 1000, 2000, 4000]);
    expect(reconnectDelayMs(7)).toBe(RECONNECT_MAX_MS);
    expect(reconnectDelayMs(1e6)).toBe(RECONNECT_MAX_MS);
  });
});

describe('battery from /sys/class/power_supply', () => {
  function tree(supplies: Record<string, Record<string, string>>): string {
    const dir = mkdtempSync(join(tmpdir(), 'waypost-power-'));
    for (const [name, files] of Object.entries(supplies)) {
      mkdirSync(join(dir, name));
      for (const [file, value] of Object.entries(files)) writeFileSync(join(dir, name, file), `${value}\n`);
    }
    return dir;
  }

  it('a discharging laptop battery', () => {
    const dir = tree({
      AC: { type: 'Mains', online: '0' },
      BAT0: { type: 'Battery', capacity: '57', status: 'Discharging' },
    });
    expect(readBattery(dir)).toEqual({ level: 0.57, is_charging: false });
  });

  it('charging, or full on mains power, counts as charging; a mouse battery is not the host', () => {
    const dir = tree({
      AC: { type: 'Mains', online: '1' },
      BAT0: { type: 'Battery', capacity: '100', status: 'Full' },
      hidpp_battery_0: { type: 'Battery', scope: 'Device', capacity: '5', status: 'Discharging' },
    });
    expect(readBattery(dir)).toEqual({ level: 1, is_charging: true });
  });

  it('two batteries are combined by energy', () => {
    const dir = tree({
      BAT0: {
        type: 'Battery',
        capacity: '100',
        energy_now: '20000000',
        energy_full: '20000000',
        status: 'Discharging',
      },
      BAT1: { type: 'Battery', capacity: '0', energy_now: '0', energy_full: '60000000', status: 'Discharging' },
    });
    expect(readBattery(dir)).toEqual({ level: 0.25, is_charging: false });
  });

  it('a host without a battery reports -1 (unknown), plugged in when mains is online', () => {
    expect(readBattery(tree({ AC: { type: 'Mains', online: '1' } }))).toEqual({ level: -1, is_charging: true });
    expect(readBattery('/nonexistent/power_supply')).toEqual({ level: -1, is_charging: false });
  });
});
