// Issue 34: the columnar coding decodes to the JSON body the SDK would have sent, byte for byte,
// for every body the SDK can build: records rendered by the SDK's own pipeline (validation,
// default schema or template, persistence.extras) in every payload shape of spec 2.3, over
// generated values (unicode, missing values, -0, 1e21, 5e-324, floats with 17 digits). A body
// the encoder cannot reproduce exactly (only keys JSON.parse reorders) is left to gzip.
import { deflateRawSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildPayload, decodeColumnar, encodeColumnar } from '@waypost/sdk/internal';
import { MOTION_ACTIVITY_TYPES, parseLocationInput, type LocationInput } from '../src/records/location.js';
import { buildLocation } from '../src/records/record-writer.js';
import { renderRecord } from '../src/records/render.js';
import { compileTemplate } from '../src/records/template.js';
import { fromScaled } from '../src/codec/decimal.js';
import type { JsonObject } from '../src/config/types.js';
import type { Payload } from '../src/http/payload.js';

const NUMBERS_THAT_BITE = [-0, 0, 1e21, 1e-7, 5e-324, 0.1 + 0.2, 1.7976931348623157e308, 2 ** 53 + 2, 123.456789012345];
const anyNumber = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
  fc.constantFrom(...NUMBERS_THAT_BITE),
  fc.integer({ min: -1_800_000_000, max: 1_800_000_000 }).map((n) => n / 1e7),
);
const within = (min: number, max: number) =>
  fc.oneof(
    fc.double({ min, max, noNaN: true }),
    fc.integer({ min: min * 1e7, max: max * 1e7 }).map((n) => n / 1e7),
  );
const text = fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' }));
const json = fc.jsonValue({ maxDepth: 3, depthSize: 'small' }) as fc.Arbitrary<unknown>;
const extras = fc.dictionary(text, json, { maxKeys: 4 }) as fc.Arbitrary<JsonObject>;
const optional = <T>(value: fc.Arbitrary<T>) => fc.option(value, { nil: undefined });

const input: fc.Arbitrary<LocationInput> = fc.record(
  {
    latitude: within(-90, 90),
    longitude: within(-180, 180),
    accuracy: optional(fc.oneof(fc.constant(-1), fc.double({ min: 0, max: 1e6, noNaN: true }))),
    speed: optional(fc.double({ min: 0, max: 400, noNaN: true })),
    heading: optional(fc.oneof(fc.integer({ min: 0, max: 359 }), fc.double({ min: 0, max: 360, noNaN: true }))),
    altitude: optional(anyNumber),
    altitude_accuracy: optional(fc.double({ min: 0, max: 1e3, noNaN: true })),
    timestamp: fc.integer({ min: 0, max: Date.UTC(9999, 11, 31, 23, 59, 59, 999) }),
    activity: optional(
      fc.record({ type: fc.constantFrom(...MOTION_ACTIVITY_TYPES), confidence: fc.integer({ min: 0, max: 100 }) }),
    ),
    battery: optional(fc.record({ level: fc.double({ min: -1, max: 1, noNaN: true }), is_charging: fc.boolean() })),
    extras: optional(extras),
    mock: optional(fc.boolean()),
    uuid: optional(
      fc.oneof(
        text.filter((s) => s.length > 0 && s.length <= 128),
        fc.uuid(),
      ),
    ),
  },
  { requiredKeys: ['latitude', 'longitude', 'timestamp'] },
);

const TEMPLATES = [
  null,
  '{"lat":<%= latitude %>,"lng":<%= longitude %>,"t":"<%= timestamp %>","u":"<%= uuid %>","n":<%= sequence %>,"b":<%= battery.level %>,"m":<%= is_moving %>}',
  '[<%= latitude %>,<%= longitude %>,<%= speed %>,"<%= activity.type %>"]',
  '{"p":{"x":<%= longitude %>,"y":<%= latitude %>},"acc":<%= accuracy %>,"odo":<%= odometer %>}',
];

interface Case {
  inputs: LocationInput[];
  template: string | null;
  configuredExtras: JsonObject;
  rootProperty: string;
  params: JsonObject;
  batchSync: boolean;
  odometer: number;
}

const cases: fc.Arbitrary<Case> = fc.record({
  inputs: fc.array(input, { minLength: 1, maxLength: 12 }),
  template: fc.constantFrom(...TEMPLATES),
  configuredExtras: extras,
  rootProperty: fc.oneof(fc.constantFrom('location', '.', 'data'), text),
  params: fc.dictionary(text, json, { maxKeys: 3 }) as fc.Arbitrary<JsonObject>,
  batchSync: fc.boolean(),
  odometer: fc.double({ min: 0, max: 1e7, noNaN: true }),
});

/** The same, with index-like wrapper keys ("7") often: the ones a parsed object moves to the front. */
const casesWithIndexKeys: fc.Arbitrary<Case> = fc
  .tuple(cases, fc.constantFrom('location', '7', '.'), fc.dictionary(fc.constantFrom('0', '12', '-1', '01', 'k'), json))
  .map(([c, rootProperty, params]) => ({ ...c, rootProperty, params: params as JsonObject }));

/** The body the SDK sends for these inputs: its own validation, rendering and payload builder. */
function bodyOf(c: Case): string {
  return payloadOf(c).body;
}

function payloadOf(c: Case): Payload {
  const template = c.template === null ? null : compileTemplate(c.template, 'location', 'persistence.locationTemplate');
  const records = c.inputs.flatMap((raw, i) => {
    const location = buildLocation(parseLocationInput(raw, 0), { isMoving: i % 2 === 0, odometer: c.odometer + i });
    location.sequence = 1000 + i;
    try {
      return [renderRecord(location, c.configuredExtras, template)];
    } catch {
      return []; // A template that renders invalid JSON: recordLocation refuses it, nothing is stored.
    }
  });
  fc.pre(records.length > 0);
  return buildPayload(c.batchSync ? records : records.slice(0, 1), c);
}

/** What JSON.parse then JSON.stringify give back: every SDK body but those with reordered keys. */
const canonical = (body: string) => JSON.stringify(JSON.parse(body)) === body;

describe('columnar round trip (fast-check, fixed seed and run count)', () => {
  it('every generated body decodes to exactly the JSON text; only bodies JSON.parse reorders are refused', () => {
    let refused = 0;
    fc.assert(
      fc.property(cases, (c) => {
        const body = bodyOf(c);
        // Both versions: version 1 is what a server from before version 2 is sent.
        for (const version of [1, 2] as const) {
          const bytes = encodeColumnar(body, version);
          if (bytes === null) {
            refused++;
            expect(canonical(body)).toBe(false);
            continue;
          }
          expect(decodeColumnar(bytes, body.length)).toBe(body);
        }
      }),
      { seed: 34, numRuns: 400 },
    );
    expect(refused).toBeLessThan(80);
  });

  it('a body the payload builder calls canonical is, and is coded without the check to exactly its text', () => {
    const seen = { canonical: 0, not: 0 };
    fc.assert(
      fc.property(casesWithIndexKeys, (c) => {
        const payload = payloadOf(c);
        if (!payload.canonical) {
          seen.not++;
          return;
        }
        seen.canonical++;
        expect(canonical(payload.body)).toBe(true);
        const bytes = encodeColumnar(payload.body, 2, true);
        expect(bytes).not.toBeNull();
        expect(decodeColumnar(bytes!, payload.body.length)).toBe(payload.body);
      }),
      { seed: 3405, numRuns: 400 },
    );
    // Both kinds were generated: index-like wrapper keys make the builder say "not canonical".
    expect(seen.canonical).toBeGreaterThan(50);
    expect(seen.not).toBeGreaterThan(50);
  });

  it('the decoder prints a scaled integer exactly as JSON.stringify prints the number', () => {
    const big = 10 ** 15 - 1;
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ min: -big, max: big }), fc.integer({ min: -1e4, max: 1e4 })),
        fc.nat({ max: 15 }),
        (k, scale) => {
          const value = k / 10 ** scale;
          fc.pre(value === 0 || Math.abs(value) >= 1e-6);
          expect(fromScaled(k, scale)).toBe(JSON.stringify(value));
        },
      ),
      { seed: 3404, numRuns: 20000 },
    );
  });

  it('integer columns anywhere in the 15-digit range, smooth or wild, decode exactly at every difference order', () => {
    const big = 10 ** 15 - 1;
    const column = fc.oneof(
      fc.array(fc.integer({ min: -big, max: big }), { minLength: 1, maxLength: 40 }),
      fc.array(fc.constantFrom(-big, big, 0, 1, -1), { minLength: 1, maxLength: 40 }),
      // Smooth: a cubic, whose third differences are constant (order 3 is chosen).
      fc
        .tuple(fc.integer({ min: -1e6, max: 1e6 }), fc.integer({ min: -300, max: 300 }), fc.nat({ max: 60 }))
        .map(([a, b, n]) => Array.from({ length: n + 1 }, (_, i) => a + b * i * i + 7 * i * i * i)),
      // Smooth but for a swing from one end of the range to the other: third differences past 2^52,
      // which zigzag past 2^53 (order 3 must not be chosen however cheap the rest is).
      fc.nat({ max: 80 }).map((at) => {
        const values = Array.from({ length: 120 }, (_, i) => 1000 * i * i * i);
        values.splice(at, 0, big, -big, big);
        return values;
      }),
    );
    fc.assert(
      fc.property(column, fc.nat({ max: 7 }), (values, scale) => {
        const body = JSON.stringify(
          values.map((v) => ({ v: v / 10 ** scale, t: new Date(Math.abs(v) % 253402300800000).toISOString() })),
        );
        for (const version of [1, 2] as const) {
          const bytes = encodeColumnar(body, version);
          expect(bytes).not.toBeNull();
          expect(decodeColumnar(bytes!, body.length)).toBe(body);
        }
      }),
      { seed: 3403, numRuns: 500 },
    );
  });

  it('a body the encoder would get wrong (integer-like param keys) is refused, not sent altered', () => {
    const body = buildPayload(['{"uuid":"a"}'], {
      rootProperty: 'location',
      params: { '7': true },
      batchSync: false,
    }).body;
    expect(body).toBe('{"location":{"uuid":"a"},"7":true}');
    expect(encodeColumnar(body)).toBeNull();
  });

  it('a default-schema batch costs its key names once and a sequential uuid nothing', () => {
    const records = Array.from({ length: 100 }, (_, i) => {
      const location = buildLocation(
        // Seven decimals, as GNSS receivers and the GPX/NMEA providers give them.
        parseLocationInput(
          { latitude: Number((45.5 + i * 1e-4).toFixed(7)), longitude: -73.5, timestamp: i * 5000 },
          0,
        ),
        { isMoving: true, odometer: i * 11.1 },
      );
      location.sequence = i + 1;
      return renderRecord(location, {}, null);
    });
    const body = buildPayload(records, { rootProperty: 'location', params: {}, batchSync: true }).body;
    const bytes = encodeColumnar(body)!;
    expect(decodeColumnar(bytes, body.length)).toBe(body);
    // On the wire (raw deflate): under 3 bytes a record, a sixth of gzip's for the same JSON.
    const wire = deflateRawSync(bytes).length;
    expect(wire / 100).toBeLessThan(3);
    expect(wire * 6).toBeLessThan(gzipSync(body).length);
  });
});
