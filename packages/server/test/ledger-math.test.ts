import { describe, expect, it } from 'vitest';
import { MAX_DROPPED_HEADER_CHARS, parseDroppedHeader } from '../src/ledger/dropped-header.js';
import { countOf, normalize, subtract, type Range } from '../src/ledger/ranges.js';

describe('sequence ranges', () => {
  it.each<[Range[], Range[]]>([
    [[], []],
    [
      [
        [5, 9],
        [1, 3],
      ],
      [
        [1, 3],
        [5, 9],
      ],
    ],
    [
      [
        [1, 3],
        [4, 6],
      ],
      [[1, 6]],
    ],
    [
      [
        [1, 10],
        [2, 3],
      ],
      [[1, 10]],
    ],
    [
      [
        [7, 7],
        [7, 8],
        [1, 1],
      ],
      [
        [1, 1],
        [7, 8],
      ],
    ],
  ])('normalize %j', (input, output) => expect(normalize(input)).toEqual(output));

  it.each<[Range[], Range[], Range[]]>([
    [[[1, 10]], [], [[1, 10]]],
    [
      [[1, 10]],
      [[4, 5]],
      [
        [1, 3],
        [6, 10],
      ],
    ],
    [[[1, 10]], [[1, 10]], []],
    [
      [[1, 10]],
      [
        [0, 2],
        [9, 20],
      ],
      [[3, 8]],
    ],
    [
      [
        [1, 3],
        [7, 9],
      ],
      [[2, 8]],
      [
        [1, 1],
        [9, 9],
      ],
    ],
    [
      [[1, 9e15]],
      [[2, 9e15 - 1]],
      [
        [1, 1],
        [9e15, 9e15],
      ],
    ],
  ])('%j minus %j', (a, b, out) => expect(subtract(a, b)).toEqual(out));

  it('counts without enumerating (a range of 9e15 numbers is one subtraction)', () => {
    expect(countOf([[1, 9e15]])).toBe(9e15);
  });
});

describe('the Waypost-Dropped header', () => {
  it.each([
    [
      'ttl=5-9,12;cap=20-25;destroyed=30',
      [
        { reason: 'ttl', range: [5, 9] },
        { reason: 'ttl', range: [12, 12] },
        { reason: 'cap', range: [20, 25] },
        { reason: 'destroyed', range: [30, 30] },
      ],
    ],
    [' cap = 1-2 ', [{ reason: 'cap', range: [1, 2] }]],
  ])('%s parses', (header, report) => expect(parseDroppedHeader(header)).toEqual({ ok: true, report }));

  it.each([
    ['lost=1-2', /not reason=ranges/],
    ['ttl=9-5', /not increasing/],
    ['ttl=0', /not a sequence number/],
    ['ttl=-3', /not a sequence number/],
    ['ttl=1-2-3', /not a sequence number/],
    ['ttl=1.5', /not a sequence number/],
    ['ttl=99999999999999999', /not a sequence number/],
    ['ttl', /not reason=ranges/],
    ['ttl=1=2', /not reason=ranges/],
    [`ttl=${Array.from({ length: 300 }, (_, i) => i + 1).join(',')}`, /more than 256 ranges/],
    [`ttl=1${' '.repeat(MAX_DROPPED_HEADER_CHARS)}`, /longer than/],
  ])('%s is ignored (%s)', (header, why) => {
    const parsed = parseDroppedHeader(header);
    expect(parsed.ok).toBe(false);
    expect((parsed as { why: string }).why).toMatch(why);
  });
});
