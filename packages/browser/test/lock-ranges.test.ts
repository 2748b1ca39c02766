import { describe, expect, it } from 'vitest';
import { covers, normalize, withRange, without, withoutInterval } from '../src/store/lock-ranges.js';

describe('lock ranges (the IndexedDB store keeps upload locks as disjoint id ranges)', () => {
  it('normalize sorts and joins overlapping and touching ranges', () => {
    expect(
      normalize([
        { from: 8, to: 9 },
        { from: 1, to: 3 },
        { from: 4, to: 5 },
        { from: 2, to: 2 },
      ]),
    ).toEqual([
      { from: 1, to: 5 },
      { from: 8, to: 9 },
    ]);
  });

  it('a batch taken in order becomes one range, merged with what it spans', () => {
    expect(withRange([{ from: 3, to: 4 }], 1, 6)).toEqual([{ from: 1, to: 6 }]);
    expect(withRange([{ from: 10, to: 12 }], 6, 1)).toEqual([
      { from: 1, to: 6 },
      { from: 10, to: 12 },
    ]);
  });

  it('without(ids) splits ranges exactly around the given ids', () => {
    const locks = [{ from: 1, to: 10 }];
    expect(without(locks, [1, 5, 10, 42])).toEqual([
      { from: 2, to: 4 },
      { from: 6, to: 9 },
    ]);
    expect(without(locks, [])).toEqual(locks);
    expect(covers(without(locks, [5]), 5)).toBe(false);
    expect(covers(without(locks, [5]), 6)).toBe(true);
  });

  it('withoutInterval removes a whole batch, keeping what lies beside it', () => {
    const locks = [
      { from: 1, to: 10 },
      { from: 20, to: 30 },
    ];
    expect(withoutInterval(locks, 5, 25)).toEqual([
      { from: 1, to: 4 },
      { from: 26, to: 30 },
    ]);
    expect(withoutInterval(locks, 1, 10)).toEqual([{ from: 20, to: 30 }]);
    expect(withoutInterval(locks, 11, 19)).toEqual(locks);
  });
});
