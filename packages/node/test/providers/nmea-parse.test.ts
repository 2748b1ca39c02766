import { describe, expect, it } from 'vitest';
import { NmeaDecoder, parseNmeaLine } from '@waypost/node';
import { epochSentences, sentence, straightTrack } from './support/nmea-writer.js';

// Published receiver output (NMEA reference examples, SiRF, MediaTek and u-blox logs), checksums as sent.
const REAL: [string, string, Record<string, unknown>][] = [
  [
    'classic GPRMC',
    '$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A',
    {
      type: 'RMC',
      talker: 'GP',
      valid: true,
      latitude: 48.1173,
      speedKnots: 22.4,
      course: 84.4,
      date: Date.UTC(1994, 2, 23),
    },
  ],
  [
    'classic GPGGA',
    '$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47',
    { type: 'GGA', quality: 1, hdop: 0.9, altitude: 545.4 },
  ],
  [
    'GPGSA 3D fix',
    '$GPGSA,A,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1*39',
    { type: 'GSA', fixType: 3, pdop: 2.5, hdop: 1.3, vdop: 2.1 },
  ],
  [
    'GPGST error estimates',
    '$GPGST,172814.0,0.006,0.023,0.020,273.6,0.023,0.020,0.031*6A',
    { type: 'GST', latitudeError: 0.023, longitudeError: 0.02, altitudeError: 0.031 },
  ],
  [
    'SiRF GGA west, millisecond time, DGPS station field',
    '$GPGGA,161229.487,3723.2475,N,12158.3416,W,1,07,1.0,9.0,M,,,,0000*18',
    { type: 'GGA', longitude: -(121 + 58.3416 / 60), altitude: 9 },
  ],
  [
    'SiRF RMC with empty magnetic variation',
    '$GPRMC,161229.487,A,3723.2475,N,12158.3416,W,0.13,309.62,120598,,*10',
    { type: 'RMC', course: 309.62, date: Date.UTC(1998, 4, 12) },
  ],
  [
    'MediaTek GGA, negative geoid',
    '$GPGGA,002153.000,3342.6618,N,11751.3858,W,1,10,1.2,27.0,M,-34.2,M,,0000*5E',
    { hdop: 1.2 },
  ],
  ['multi-GNSS GNGSA', '$GNGSA,A,3,80,71,73,79,69,,,,,,,,1.83,1.09,1.47*17', { type: 'GSA', talker: 'GN', hdop: 1.09 }],
  ['BeiDou BDGSA', '$BDGSA,A,3,07,10,,,,,,,,,,,2.1,1.2,1.7*23', { type: 'GSA', talker: 'BD', vdop: 1.7 }],
  ['mode-indicator RMC', '$GPRMC,092750.000,A,5321.6802,N,00630.3372,W,0.02,31.66,280511,,,A*43', { valid: true }],
];

describe('NMEA sentences from real receivers', () => {
  it.each(REAL)('%s', (_name, line, expected) => {
    const result = parseNmeaLine(line);
    expect(result.ok).toBe(true);
    expect(result.ok && result.sentence).toMatchObject(expected);
  });

  it.each(['GN', 'GL', 'GA', 'BD', 'GB', 'GP'])('talker %s: RMC and GGA are decoded the same', (talker) => {
    const rmc = parseNmeaLine(sentence(`${talker}RMC,083559.00,A,4717.11437,N,00833.91522,E,0.004,77.52,091202,,,A`));
    const gga = parseNmeaLine(sentence(`${talker}GGA,083559.00,4717.11437,N,00833.91522,E,1,08,1.01,499.6,M,48.0,M,,`));
    expect(rmc).toMatchObject({ ok: true, sentence: { type: 'RMC', talker, latitude: 47 + 17.11437 / 60 } });
    expect(gga).toMatchObject({ ok: true, sentence: { type: 'GGA', talker, altitude: 499.6 } });
  });
});

describe('NMEA input that must be refused or survived', () => {
  const table: [string, string, 'checksum' | 'malformed' | 'ok'][] = [
    ['a flipped digit', '$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6B', 'checksum'],
    [
      'a changed coordinate, old checksum',
      '$GPGGA,123519,4807.039,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47',
      'checksum',
    ],
    ['no checksum at all', '$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,', 'malformed'],
    ['a checksum cut short', '$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*4', 'checksum'],
    ['the second half of a sentence', '01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47', 'malformed'],
    ['binary garbage', '\u00b5b\u0001\u0007\u0000\u001c\u00ff\u00fe', 'malformed'],
    ['garbage, then a whole sentence', '\u00ff\u00fe#@!$GPGSA,A,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1*39', 'ok'],
    ['an empty address', sentence(''), 'malformed'],
    ['control characters inside', sentence('GPGGA,12\u00073519,,,,,0,,,,,,,,'), 'malformed'],
    ['far too long', sentence(`GPTXT,${'x'.repeat(300)}`), 'malformed'],
  ];
  it.each(table)('%s', (_name, line, expected) => {
    const result = parseNmeaLine(line);
    if (expected === 'ok') expect(result.ok).toBe(true);
    else expect(result).toEqual({ ok: false, reason: expected });
  });

  it('missing fields give nulls, never NaN or a throw', () => {
    const result = parseNmeaLine(sentence('GPRMC,,V,,,,,,,,,,N'));
    expect(result).toEqual({
      ok: true,
      sentence: {
        type: 'RMC',
        talker: 'GP',
        time: null,
        date: null,
        valid: false,
        latitude: null,
        longitude: null,
        speedKnots: null,
        course: null,
      },
    });
    expect(parseNmeaLine(sentence('GNGGA,120000.00,,,,,0,00,99.99,,,,,,'))).toMatchObject({
      ok: true,
      sentence: { quality: 0, latitude: null, altitude: null },
    });
    expect(parseNmeaLine(sentence('GPGGA,120000,9999.000,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,'))).toMatchObject({
      ok: true,
      sentence: { latitude: null },
    });
  });
});

describe('NmeaDecoder: bytes to fixes', () => {
  const today = () => Date.UTC(2026, 4, 17);

  it('one fix per epoch with GST accuracy, knots to m/s, the fix time, whatever the chunking', () => {
    const track = straightTrack(3);
    const text = track.flatMap((p) => epochSentences(p)).join('\r\n') + '\r\n';
    for (const chunkSize of [1, 7, 64, text.length]) {
      const decoder = new NmeaDecoder(today);
      const fixes = [];
      for (let i = 0; i < text.length; i += chunkSize)
        fixes.push(...decoder.push(Buffer.from(text.slice(i, i + chunkSize), 'latin1')));
      fixes.push(...decoder.end());
      expect(fixes).toHaveLength(3);
      expect(fixes[1]).toEqual({
        timestamp: track[1]!.time,
        coords: {
          latitude: expect.closeTo(track[1]!.latitude, 6),
          longitude: expect.closeTo(track[1]!.longitude, 6),
          accuracy: 2.77, // hypot(2.1, 1.8) from GST
          speed: 13.1,
          heading: 31.3,
          altitude: 35,
          altitude_accuracy: 3.3,
        },
      });
      expect(decoder.stats).toMatchObject({ fixes: 3, badChecksum: 0, malformed: 0, sentences: 12 });
    }
  });

  it('bad checksums, garbage, split and over-long lines are counted and skipped; good epochs still come through', () => {
    const [a, b, c] = straightTrack(3).map((p) => epochSentences(p, 'GP'));
    const corrupt = a![0]!.replace('1,09', '1,08'); // a bit flipped on the wire
    const decoder = new NmeaDecoder(today);
    const fixes = [
      ...decoder.push(`${corrupt}\n${a!.slice(1).join('\n')}\n`),
      ...decoder.push('\u00ff\u00fe\u0000garbage line\n'),
      ...decoder.push(`${'Z'.repeat(5000)}`), // no newline for a long while: wrong baud rate
      ...decoder.push(`\n${b!.join('\n')}\n${c![0]!.slice(0, 20)}`), // c's first sentence cut off...
      ...decoder.push(`\n${c!.slice(1).join('\n')}\n`),
      ...decoder.end(),
    ];
    expect(fixes).toHaveLength(3);
    // Epoch a lost its GGA, so its accuracy comes from GST and it has no altitude from GGA.
    expect(fixes[0]!.coords).toMatchObject({ altitude: -1, accuracy: 2.77 });
    expect(decoder.stats).toMatchObject({ badChecksum: 1, malformed: 2, overlong: 1, fixes: 3 });
  });

  it('HDOP times a nominal range error when there is no GST; no fix while the receiver has none', () => {
    const decoder = new NmeaDecoder(today);
    const fixes = [
      ...decoder.push(
        `${sentence('GPGGA,120000.00,,,,,0,00,99.99,,,,,,')}\n${sentence('GPRMC,120000.00,V,,,,,,,170526,,,N')}\n`,
      ),
      ...decoder.push(`${sentence('GPGGA,120001.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,')}\n`),
      ...decoder.end(),
    ];
    expect(fixes).toEqual([
      {
        // GGA alone has no date: today's (the injected clock's) date is used.
        timestamp: Date.UTC(2026, 4, 17, 12, 0, 1),
        coords: {
          latitude: 48.1173,
          longitude: expect.closeTo(11.516667, 6),
          accuracy: 4.5,
          speed: -1,
          heading: -1,
          altitude: 545.4,
          altitude_accuracy: -1,
        },
      },
    ]);
    expect(decoder.stats.noFix).toBe(1);
  });
});
