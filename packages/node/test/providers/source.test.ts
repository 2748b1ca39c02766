import { describe, expect, it } from 'vitest';
import { parseSource, reconnectDelayMs, RECONNECT_MAX_MS } from '@waypost/node';

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
