// Issue 34: the committed test vectors of docs/wire-format.md, both ways (the decoder gives each
// body back from its bytes; the encoder writes exactly those bytes), and the decoder's limits
// against hostile bytes: a "columnar bomb" (a few bytes that claim a million rows), nesting, counts,
// truncation, and a bounded fuzz of every vector's bytes (fast-check, fixed seed and run count).
import { readFileSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CodecError, decodeColumnar, encodeColumnar } from '@waypost/sdk/internal';

interface Vectors {
  vectors: { name: string; version: 1 | 2 | 3; json: string; columnar: string }[];
  requests: { version: 1 | 2 | 3; json: string; body: string }[];
}
const file = JSON.parse(
  readFileSync(new URL('../../../docs/wire-format/vectors.json', import.meta.url), 'utf8'),
) as Vectors;
const hex = (text: string) => Uint8Array.from(Buffer.from(text, 'hex'));
const MIB = 1024 * 1024;

/** The decoder's verdict on hostile bytes: the text, or the CodecError's code (never anything else). */
function verdict(bytes: Uint8Array, limit = MIB): string {
  try {
    return decodeColumnar(bytes, limit);
  } catch (error) {
    if (error instanceof CodecError) return `refused ${error.code}`;
    throw error;
  }
}

describe('docs/wire-format/vectors.json', () => {
  it.each(file.vectors.map((v) => [v.version, v.name, v] as const))(
    'version %i, %s: decodes to the JSON and encodes to the bytes',
    (version, _, v) => {
      expect(decodeColumnar(hex(v.columnar), v.json.length)).toBe(v.json);
      expect(Buffer.from(encodeColumnar(v.json, version)!).toString('hex')).toBe(v.columnar);
    },
  );

  it('version 2 writes third differences where they are smaller; version 1 never does', () => {
    const [v1, v2] = [1, 2].map((version) => file.vectors.find((v) => v.version === version && /third/.test(v.name))!);
    expect(hex(v2!.columnar).length).toBeLessThan(hex(v1!.columnar).length);
    // A version 1 body whose difference order is 3 is refused: order 3 exists from version 2 on.
    const forged = hex(v2!.columnar);
    forged[0] = 1;
    expect(verdict(forged)).toBe('refused INVALID_COLUMNAR');
  });

  it("version 2 names the default record's shape by its preset number instead of writing its keys", () => {
    const single = (version: number) =>
      hex(file.vectors.find((v) => v.version === version && v.name.includes('rootProperty "."'))!.columnar);
    // version 2, tag 3 (row), 1 row, 17 columns, 1 shape: preset 1.
    expect([...single(2).subarray(0, 6)]).toEqual([2, 3, 1, 17, 1, 1]);
    expect(single(2).length).toBeLessThan(single(1).length - 40);
    // No preset 2 yet; preset 1 with fewer columns than its leaves refer to; presets in version 1.
    const noSuchPreset = Uint8Array.from(single(2));
    noSuchPreset[5] = 2;
    expect(verdict(noSuchPreset)).toBe('refused INVALID_COLUMNAR');
    expect(verdict(Uint8Array.from([2, 3, 1, 3, 1, 1]))).toBe('refused INVALID_COLUMNAR');
    const asVersion1 = Uint8Array.from(single(2));
    asVersion1[0] = 1;
    expect(verdict(asVersion1)).toBe('refused INVALID_COLUMNAR');
  });

  it("version 3 names the default record with its numbering's epoch by preset 2; version 2 knows neither", () => {
    // A default record as the SDK renders it (issue 39): sequence_epoch after sequence.
    const record = {
      uuid: '0b6a3e3e-2f2c-4d0e-9d55-3b1c1f0d9a11',
      timestamp: '2026-01-01T00:00:00.000Z',
      is_moving: true,
      odometer: 0,
      coords: {
        latitude: 45.5,
        longitude: -73.5,
        accuracy: 5,
        speed: 1,
        heading: 90,
        altitude: 10,
        altitude_accuracy: 3,
      },
      activity: { type: 'walking', confidence: 100 },
      battery: { level: 0.5, is_charging: false },
      extras: {},
      sequence: 7,
      sequence_epoch: '5f0c7e4e1d2a4b7e9c513a1f',
    };
    const json = JSON.stringify(record);
    const v2 = encodeColumnar(json, 2)!;
    const v3 = encodeColumnar(json, 3)!;
    // version 3, tag 3 (row), 1 row, 18 columns, 1 shape: preset 2.
    expect([...v3.subarray(0, 6)]).toEqual([3, 3, 1, 18, 1, 2]);
    expect(v3.length).toBeLessThan(v2.length - 40);
    expect([decodeColumnar(v2, MIB), decodeColumnar(v3, MIB)]).toEqual([json, json]);
    // A version 2 decoder knows no preset 2, and no known key 27 (sequence_epoch).
    const asVersion2 = Uint8Array.from(v3);
    asVersion2[0] = 2;
    expect(verdict(asVersion2)).toBe('refused INVALID_COLUMNAR');
    // {"sequence_epoch":"abc"}: row, 1 row, 1 column, 1 shape written out (preset 0): known key 27.
    const epochOnly = [3, 1, 1, 1, 0, 1, 27, 1, 0, 5, ...Buffer.from('"abc"')];
    expect([...encodeColumnar('{"sequence_epoch":"abc"}', 3)!]).toEqual([3, ...epochOnly]);
    expect(verdict(Uint8Array.from([2, ...epochOnly]))).toBe('refused INVALID_COLUMNAR');
    // A version 2 encoder (for a server of version 2) writes the key's text instead.
    expect(decodeColumnar(encodeColumnar('{"sequence_epoch":"abc"}', 2)!, MIB)).toBe('{"sequence_epoch":"abc"}');
  });

  it("version 3's vectors: every body of versions 1 and 2 again, and records with their numbering's epoch", () => {
    const names = (version: number) => file.vectors.filter((v) => v.version === version).map((v) => v.name);
    expect(names(3)).toEqual(names(1));
    expect(names(3)).toEqual(names(2));
    const epoch = (version: number, kind: string) =>
      hex(file.vectors.find((v) => v.version === version && v.name.startsWith(`${kind} with its numbering`))!.columnar);
    const single = [1, 2, 3].map((version) => epoch(version, 'single record'));
    // version 3, tag 3 (row), 1 row, 18 columns, 1 shape: preset 2 (preset 1 and known key 27).
    expect([...single[2]!.subarray(0, 6)]).toEqual([3, 3, 1, 18, 1, 2]);
    // Version 2 writes preset 1's keys out (preset 0) and the key's text; version 3 neither.
    expect([...single[1]!.subarray(0, 6)]).toEqual([2, 3, 1, 18, 1, 0]);
    expect(Buffer.from(single[1]!).includes('sequence_epoch')).toBe(true);
    expect(Buffer.from(single[2]!).includes('sequence_epoch')).toBe(false);
    expect(single[2]!.length).toBeLessThan(single[1]!.length - 40);
    // Read as version 2 (the version byte changed), version 3's preset 2 is refused.
    const asVersion2 = Uint8Array.from(single[2]!);
    asVersion2[0] = 2;
    expect(verdict(asVersion2)).toBe('refused INVALID_COLUMNAR');
  });

  it('whole request bodies of each version: raw deflate of the columnar bytes', () => {
    expect(file.requests.map((r) => r.version)).toEqual([1, 2, 3]);
    expect(JSON.parse(file.requests[2]!.json).location[0]).toHaveProperty('sequence_epoch');
    for (const request of file.requests) {
      expect(decodeColumnar(inflateRawSync(Buffer.from(request.body, 'base64')), MIB)).toBe(request.json);
    }
  });

  it('the annotated example of the document', () => {
    const bytes = '010202020102000322612201000322622202020100011e0a010103227822';
    expect(decodeColumnar(hex(bytes), 100)).toBe('[{"a":1.5,"b":"x"},{"a":2,"b":"x"}]');
  });
});

describe('hostile columnar bytes', () => {
  it('a columnar bomb (9 bytes claiming 2^40 rows of one shape) is refused before any row, as too large', () => {
    // version 1, table, rows 2^40, 1 column, 1 shape: { known key 1 -> column 0 }
    const bomb = Uint8Array.from([1, 2, 0x80, 0x80, 0x80, 0x80, 0x80, 0x20, 1, 1, 1, 2, 1]);
    const started = process.hrtime.bigint();
    expect(verdict(bomb)).toBe('refused BODY_TOO_LARGE');
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(1000);
  });

  it('rows that fit the size limit but hold more objects than the object limit are refused from their counts (issue 45)', () => {
    const objectsIn = (bytes: Uint8Array, maxObjects: number): string => {
      try {
        return decodeColumnar(bytes, 5 * MIB, maxObjects);
      } catch (error) {
        if (error instanceof CodecError) return `refused ${error.code}`;
        throw error;
      }
    };
    // version 1, table, 1,747,626 rows, no column, 1 shape of no keys: `[{},{},...]`, 5 MiB - 1.
    const empties = Uint8Array.from([1, 2, 0xaa, 0xd5, 0x6a, 0, 1, 0]);
    expect(objectsIn(empties, 10_000)).toBe('refused TOO_MANY_VALUES');
    expect(objectsIn(empties, 1_747_627)).toHaveLength(5 * MIB - 1);
    // 3 rows of a shape with one nested shape ({"location":{}}: known key 1, then 0 for a nested shape of
    // no keys): 6 objects and the array, 7 in all.
    const nested = Uint8Array.from([1, 2, 3, 0, 1, 1, 1, 0, 0]);
    expect(objectsIn(nested, 7)).toBe('[{"location":{}},{"location":{}},{"location":{}}]');
    expect(objectsIn(nested, 6)).toBe('refused TOO_MANY_VALUES');
  });

  it('a dictionary entry repeated past the limit is refused as it is written', () => {
    // 20,000 rows of one column whose single dictionary entry is 100 characters: 2 MB of output.
    const entry = JSON.stringify('x'.repeat(98));
    const bytes = Uint8Array.from([1, 2, 0xa0, 0x9c, 0x01, 1, 1, 1, 2, 1, 1, 1, 100, ...Buffer.from(entry)]);
    expect(verdict(bytes, 10 * MIB)).toMatch(/^\[\{"uuid":"x{98}"\}/);
    expect(verdict(bytes, MIB)).toBe('refused BODY_TOO_LARGE');
  });

  it('shapes nested deeper than 32, unknown tags, modes and versions, trailing and missing bytes', () => {
    const deep = [1, 3, 1, 1, 1, ...Array.from({ length: 40 }, () => [1, 2, 0]).flat()];
    expect(verdict(Uint8Array.from(deep))).toBe('refused INVALID_COLUMNAR');
    expect(verdict(Uint8Array.from([4, 0, 1, 0x30]))).toBe('refused INVALID_COLUMNAR'); // version 4
    expect(verdict(Uint8Array.from([3, 0, 1, 0x30]))).toBe('0'); // version 3, verbatim 0
    expect(verdict(Uint8Array.from([2, 0, 1, 0x30]))).toBe('0'); // version 2, verbatim 0
    expect(verdict(Uint8Array.from([1, 9]))).toBe('refused INVALID_COLUMNAR'); // tag 9
    expect(verdict(Uint8Array.from([1, 0, 1, 0x30, 0]))).toBe('refused INVALID_COLUMNAR'); // trailing byte
    expect(verdict(Uint8Array.from([1, 0, 5, 0x30]))).toBe('refused INVALID_COLUMNAR'); // text past the end
    expect(verdict(Uint8Array.from([1, 0, 2, 0xc3, 0x28]))).toBe('refused INVALID_COLUMNAR'); // bad UTF-8
    expect(verdict(Uint8Array.from([1, 1, 1, 0, 1, 0x31, 1, 0, 0]))).toBe('refused INVALID_COLUMNAR'); // nested object
  });

  it('fuzz: every mutation of every vector decodes or is refused with a code, within the limit', () => {
    const seeds = file.vectors.map((v) => hex(v.columnar));
    const mutation = fc.record({
      seed: fc.nat({ max: seeds.length - 1 }),
      edits: fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 6 }),
      cut: fc.option(fc.nat(), { nil: undefined }),
    });
    fc.assert(
      fc.property(mutation, ({ seed, edits, cut }) => {
        const bytes = seeds[seed]!.slice(0, cut === undefined ? undefined : cut % (seeds[seed]!.length + 1));
        for (const [at, value] of edits) if (bytes.length > 0) bytes[at % bytes.length] = value;
        const result = verdict(bytes, 4096);
        if (!result.startsWith('refused')) expect(result.length).toBeLessThanOrEqual(4096);
      }),
      { seed: 3434, numRuns: 3000 },
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        const result = verdict(Uint8Array.from([1, ...bytes]), 4096);
        if (!result.startsWith('refused')) expect(result.length).toBeLessThanOrEqual(4096);
      }),
      { seed: 34, numRuns: 3000 },
    );
  });
});
