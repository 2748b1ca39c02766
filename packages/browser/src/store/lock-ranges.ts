/**
 * Upload locks as disjoint, sorted ranges of record ids. A batch taken in order is one range (its
 * records plus any already-locked ones between them), so locking 500 records writes one row, not
 * 500. Pure functions: the store reads the ranges, computes, and writes them back in one transaction.
 */
export interface IdRange {
  from: number;
  to: number;
}

/** Sorted, merged (overlapping or touching ranges joined). */
export function normalize(ranges: readonly IdRange[]): IdRange[] {
  const sorted = [...ranges].filter((r) => r.from <= r.to).sort((a, b) => a.from - b.from);
  const merged: IdRange[] = [];
  for (const r of sorted) {
    const last = merged.at(-1);
    if (last && r.from <= last.to + 1) last.to = Math.max(last.to, r.to);
    else merged.push({ from: r.from, to: r.to });
  }
  return merged;
}

export function covers(ranges: readonly IdRange[], id: number): boolean {
  for (const r of ranges) if (r.from <= id && id <= r.to) return true;
  return false;
}

export function withRange(ranges: readonly IdRange[], from: number, to: number): IdRange[] {
  return normalize([...ranges, { from: Math.min(from, to), to: Math.max(from, to) }]);
}

/** The ranges without these ids. */
export function without(ranges: readonly IdRange[], ids: readonly number[]): IdRange[] {
  const sorted = [...new Set(ids)].sort((a, b) => a - b);
  const result: IdRange[] = [];
  for (const r of normalize(ranges)) {
    let from = r.from;
    for (const id of sorted) {
      if (id < from) continue;
      if (id > r.to) break;
      if (id > from) result.push({ from, to: id - 1 });
      from = id + 1;
    }
    if (from <= r.to) result.push({ from, to: r.to });
  }
  return result;
}

/** The ranges without the interval [from, to] (a batch removed or unlocked in one piece). */
export function withoutInterval(ranges: readonly IdRange[], from: number, to: number): IdRange[] {
  const result: IdRange[] = [];
  for (const r of normalize(ranges)) {
    if (r.to < from || r.from > to) result.push({ ...r });
    else {
      if (r.from < from) result.push({ from: r.from, to: from - 1 });
      if (r.to > to) result.push({ from: to + 1, to: r.to });
    }
  }
  return result;
}
