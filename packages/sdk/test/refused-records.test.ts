import { describe, expect, it } from 'vitest';
import { type StoredRecord } from '@waypost/sdk';
import { planBatch, refusalBackoffMs, type RefusedEntry } from '@waypost/sdk/internal';

const NOW = Date.UTC(2026, 0, 1);
const rec = (id: number): StoredRecord => ({ id, uuid: `u${id}`, createdAt: NOW, json: '{}', locked: true });
const ids = (parts: StoredRecord[][]) => parts.map((part) => part.map((r) => r.id));

// Issue 19: a record a server refused on its own is sent alone, never again in a batch with
// others until accepted, after its backoff or at once on sync() (spec 7.3); the rest keeps its order.
describe('planBatch', () => {
  const due: RefusedEntry = { attempts: 1, nextAt: NOW };
  const waiting: RefusedEntry = { attempts: 2, nextAt: NOW + 60_000 };

  it('sends a batch without refused records as it is', () => {
    expect(ids(planBatch([1, 2, 3].map(rec), new Map(), NOW, false).sends)).toEqual([[1, 2, 3]]);
  });

  it('sends a refused record alone when due, between the runs before and after it', () => {
    const plan = planBatch([1, 2, 3, 4].map(rec), new Map([[3, due]]), NOW, false);
    expect(ids(plan.sends)).toEqual([[1, 2], [3], [4]]);
    expect(plan.held).toEqual([]);
  });

  it('holds a refused record back until its backoff is over; sync() sends it alone at once', () => {
    const refused = new Map([
      [1, waiting],
      [3, waiting],
    ]);
    const before = planBatch([1, 2, 3, 4].map(rec), refused, NOW, false);
    expect(ids(before.sends)).toEqual([[2], [4]]);
    expect(before.held.map((r) => r.id)).toEqual([1, 3]);
    expect(ids(planBatch([1, 2, 3, 4].map(rec), refused, NOW + 60_000, false).sends)).toEqual([[1], [2], [3], [4]]);
    expect(ids(planBatch([1, 2, 3, 4].map(rec), refused, NOW, true).sends)).toEqual([[1], [2], [3], [4]]);
  });

  it('backs off 30 s, doubling, at most an hour', () => {
    expect([1, 2, 3, 4, 8, 20].map(refusalBackoffMs)).toEqual([30_000, 60_000, 120_000, 240_000, 3_600_000, 3_600_000]);
  });
});
