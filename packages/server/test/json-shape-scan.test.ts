import { describe, expect, it } from 'vitest';
import { JsonShapeScan, type JsonShapeLimits } from '../src/http/json-shape.js';

// The pre-parse scan reads every upload's bytes (issue 43 made its loops lean): whatever chunks the
// bytes arrive in, it must count exactly what JSON.parse would build, and nothing inside strings.

/** What JSON.parse builds: its nesting, its containers, and its members and elements. */
function shapeOf(value: unknown, depth = 1): { depth: number; containers: number; values: number } {
  if (value === null || typeof value !== 'object') return { depth: 0, containers: 0, values: 0 };
  const children = Array.isArray(value) ? value : Object.values(value);
  const shape = { depth, containers: 1, values: Math.max(0, children.length - 1) };
  for (const child of children) {
    const inner = shapeOf(child, depth + 1);
    shape.depth = Math.max(shape.depth, inner.depth);
    shape.containers += inner.containers;
    shape.values += inner.values;
  }
  return shape;
}

/** Scans `bytes` in chunks of `size`; the refusal's code, or null when it passed. */
function scan(bytes: Uint8Array, size: number, limits: JsonShapeLimits): string | null {
  const scanner = new JsonShapeScan(limits);
  try {
    for (let i = 0; i < bytes.length; i += size) scanner.feed(bytes.subarray(i, i + size));
    return null;
  } catch (error) {
    return (error as { code: string }).code;
  }
}

const TEXTS = [
  '{"location":[{"uuid":"a","coords":{"latitude":1,"longitude":2},"extras":{}},{"uuid":"b"}],"device_id":"d"}',
  // Structure inside strings, escaped quotes and backslashes (one ending a string), unicode escapes.
  '{"a":"{[,]}","b":"say \\"{[\\" ok","c":"back\\\\","d":["\\\\\\"",",",{"e":"\\u007b"}],"f":"é, [ü]"}',
  '[[[[[[[[1,2,[3,{"x":[4,5]}]]]]]]]]]',
  '[{},{},[],[[]],{"":{"":{}}}]',
  // Longer than the slices the scan reads at a time (2 KiB): strings of every length, so that an
  // escape, a string's end and a bracket each fall on a slice's edge somewhere.
  JSON.stringify({
    location: Array.from({ length: 120 }, (_, i) => ({ uuid: `${'u'.repeat(i)}\\"{[`, coords: [i, { x: ',' }] })),
  }),
];

describe('the JSON shape scan', () => {
  it.each(TEXTS)('counts what JSON.parse builds, in any chunks: %s', (text) => {
    const bytes = new TextEncoder().encode(text);
    const { depth, containers, values } = shapeOf(JSON.parse(text));
    // The scan counts a container's own "value" too (values + containers), as its limit reads.
    const exact = { maxDepth: depth, maxContainers: containers, maxValues: values + containers, maxRecords: 100 };
    for (const size of [1, 2, 3, 7, bytes.length]) {
      expect(scan(bytes, size, exact), `chunks of ${size}`).toBeNull();
      expect(scan(bytes, size, { ...exact, maxDepth: depth - 1 }), `chunks of ${size}`).toBe('TOO_DEEP');
      expect(scan(bytes, size, { ...exact, maxContainers: containers - 1 }), `chunks of ${size}`).toBe(
        'TOO_MANY_VALUES',
      );
      expect(scan(bytes, size, { ...exact, maxValues: values + containers - 1 }), `chunks of ${size}`).toBe(
        'TOO_MANY_VALUES',
      );
    }
  });

  // The parser trusts a clean verdict (issue 43): JSON.parse alone, without Fastify's search for
  // poisoning keys. So every text that search would find must be suspect, in any chunks.
  const POISONED = [
    '{"a":1,"__proto__":{"x":1}}',
    '{"location":[{"uuid":"u","constructor":{"prototype":{"x":1}}}]}',
    '{"\\u005f_proto__":{"x":1}}',
    '{"c\\u006fnstructor":{"prototype":{}}}',
    `{"pad":"${'p'.repeat(3000)}","__proto__" : {}}`,
  ];
  it.each(POISONED)('finds a text that may poison a prototype suspect, in any chunks: %s', (text) => {
    const bytes = new TextEncoder().encode(text);
    for (const size of [1, 2, 3, 7, 9, 11, bytes.length]) {
      const scanner = new JsonShapeScan(LOOSE);
      for (let i = 0; i < bytes.length; i += size) scanner.feed(bytes.subarray(i, i + size));
      expect(scanner.suspect, `chunks of ${size}`).toBe(true);
    }
  });

  it('finds an upload without such keys or escapes clean, whole', () => {
    const clean = [TEXTS[0]!, TEXTS[2]!, TEXTS[3]!, '{"a":"__proto_","b":"constructors","c":"_","__proto":1}'];
    for (const text of clean) {
      const scanner = new JsonShapeScan(LOOSE);
      scanner.feed(new TextEncoder().encode(text));
      expect(scanner.suspect, text).toBe(false);
    }
  });
});

const LOOSE: JsonShapeLimits = { maxDepth: 64, maxContainers: 1e6, maxValues: 1e6, maxRecords: 1e4 };
