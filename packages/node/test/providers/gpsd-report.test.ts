import { describe, expect, it } from 'vitest';
import { parseGpsdReport } from '@waypost/node';

// Reports as gpsd 3.22 writes them (from `gpspipe -w` against a u-blox receiver).
const TPV_3D =
  '{"class":"TPV","device":"/dev/ttyACM0","mode":3,"time":"2026-05-17T09:00:01.000Z","ept":0.005,"lat":52.520100000,"lon":13.405100000,"altHAE":81.000,"altMSL":35.000,"alt":35.000,"epx":2.100,"epy":1.800,"epv":3.300,"track":31.3000,"magtrack":35.1,"magvar":3.8,"speed":13.100,"climb":0.000,"eps":4.2,"epc":6.6,"geoidSep":46.000,"eph":2.900,"sep":4.800}';

describe('gpsd reports', () => {
  it('a 3D TPV: position, MSL altitude, speed, track as heading, eph as accuracy, epv, its own time', () => {
    expect(parseGpsdReport(TPV_3D)).toEqual({
      timestamp: '2026-05-17T09:00:01.000Z',
      coords: {
        latitude: 52.5201,
        longitude: 13.4051,
        accuracy: 2.9,
        speed: 13.1,
        heading: 31.3,
        altitude: 35,
        altitude_accuracy: 3.3,
      },
    });
  });

  it('a 2D TPV has no altitude; without eph the per-axis errors are combined', () => {
    const tpv = JSON.parse(TPV_3D) as Record<string, unknown>;
    delete tpv['eph'];
    tpv['mode'] = 2;
    expect(parseGpsdReport(JSON.stringify(tpv))!.coords).toMatchObject({
      altitude: -1,
      altitude_accuracy: -1,
      accuracy: expect.closeTo(2.766, 3),
    });
  });

  it.each([
    ['no fix yet', '{"class":"TPV","device":"/dev/ttyACM0","mode":1,"time":"2026-05-17T09:00:01.000Z"}'],
    ['mode 0 (unknown)', '{"class":"TPV","mode":0}'],
    ['a SKY report', '{"class":"SKY","device":"/dev/ttyACM0","hdop":0.9,"satellites":[]}'],
    ['VERSION', '{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}'],
    ['a TPV without time', '{"class":"TPV","mode":3,"lat":1,"lon":2}'],
    ['latitude out of range', '{"class":"TPV","mode":3,"lat":91,"lon":2,"time":"2026-05-17T09:00:01.000Z"}'],
    ['not JSON', '{"class":"TPV","mode":3,"lat'],
    ['JSON but not an object', '[1,2,3]'],
    ['null', 'null'],
  ])('%s is not a fix', (_name, line) => {
    expect(parseGpsdReport(line)).toBeNull();
  });

  it('a negative or missing speed, track or error is -1, not a rejected record', () => {
    const fix = parseGpsdReport(
      '{"class":"TPV","mode":3,"lat":1,"lon":2,"time":"2026-05-17T09:00:01Z","speed":-0.1,"track":400}',
    );
    expect(fix!.coords).toMatchObject({ speed: -1, heading: -1, accuracy: -1, altitude: -1 });
  });
});
