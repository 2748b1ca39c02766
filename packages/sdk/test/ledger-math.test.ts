import { describe, expect, it } from 'vitest';
import {
  formatDroppedHeader,
  MAX_DROPPED_HEADER_CHARS,
  MAX_DROPPED_RANGES,
  parseDroppedHeader,
} from '../src/ledger/dropped-header.js';
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

describe('the Waypost-Dropped header the SDK writes', () => {
  it('names every pending range, reasons in order, and the server side parses it back', () => {
    const pending = {
      ttl: [
        [5, 9],
        [12, 12],
      ] as Range[],
      cap: [[20, 25]] as Range[],
      destroyed: [[30, 30]] as Range[],
    };
    const header = formatDroppedHeader(pending)!;
    expect(header.value).toBe('ttl=5-9,12;cap=20-25;destroyed=30');
    expect(header.sent).toEqual(pending);
    expect(parseDroppedHeader(header.value)).toEqual({
      ok: true,
      report: [
        { reason: 'ttl', range: [5, 9] },
        { reason: 'ttl', range: [12, 12] },
        { reason: 'cap', range: [20, 25] },
        { reason: 'destroyed', range: [30, 30] },
      ],
    });
  });

  it('is null with nothing pending', () => {
    expect(formatDroppedHeader({ ttl: [], cap: [], destroyed: [] })).toBeNull();
  });

  it('carries at most what the server reads, and says exactly which ranges it carries', () => {
    // Every other number dropped: 1000 ranges, far more than one header may name.
    const ttl = Array.from({ length: 1000 }, (_, i): Range => [2 * i + 1, 2 * i + 1]);
    const header = formatDroppedHeader({ ttl, cap: [[5000, 5001]], destroyed: [] })!;
    expect(header.value.length).toBeLessThanOrEqual(MAX_DROPPED_HEADER_CHARS);
    const parsed = parseDroppedHeader(header.value);
    expect(parsed.ok).toBe(true);
    const carried = parsed.ok ? parsed.report.length : 0;
    expect(carried).toBeLessThanOrEqual(MAX_DROPPED_RANGES);
    expect(header.sent.ttl).toEqual(ttl.slice(0, carried));
    expect(header.sent.cap).toEqual([]);
  });

  it('names the numbering first when asked (issue 39); the parser gives it to every range, and a header of the full size still parses', () => {
    const epoch = '5f0c7e4e1d2a4b7e9c513a1f';
    const header = formatDroppedHeader({ ttl: [[3, 5]], cap: [], destroyed: [[8, 8]] }, epoch)!;
    expect(header.value).toBe(`epoch=${epoch};ttl=3-5;destroyed=8`);
    expect(parseDroppedHeader(header.value)).toEqual({
      ok: true,
      report: [
        { reason: 'ttl', range: [3, 5], epoch },
        { reason: 'destroyed', range: [8, 8], epoch },
      ],
    });
    const full = formatDroppedHeader(
      { ttl: Array.from({ length: 1000 }, (_, i): Range => [2 * i + 1, 2 * i + 1]), cap: [], destroyed: [] },
      epoch,
    )!;
    expect(parseDroppedHeader(full.value)).toMatchObject({ ok: true });
    // Without an epoch, the grammar of issue 19 as before; one that is not an id is refused whole.
    expect(formatDroppedHeader({ ttl: [[3, 5]], cap: [], destroyed: [] })!.value).toBe('ttl=3-5');
    expect(parseDroppedHeader('epoch=a b;ttl=1')).toMatchObject({ ok: false });
    expect(parseDroppedHeader('ttl=1;epoch=abc')).toMatchObject({ ok: false });
  });
});
