/**
 * Sequence ranges, the arithmetic of the delivery ledger (issue 19). A range is [from, to],
 * inclusive, 1 <= from <= to. Pure and table-tested: the ledger's counts are sums over these.
 */
export type Range = readonly [number, number];

/** Sorted, merged (overlapping or adjacent ranges become one). */
export function normalize(ranges: readonly Range[]): Range[] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const [from, to] of sorted) {
    const last = merged.at(-1);
    if (last && from <= last[1] + 1) last[1] = Math.max(last[1], to);
    else merged.push([from, to]);
  }
  return merged;
}

/** `ranges` less everything in `minus` (both normalized). */
export function subtract(ranges: readonly Range[], minus: readonly Range[]): Range[] {
  const out: Range[] = [];
  let j = 0;
  for (const [from, to] of ranges) {
    let start = from;
    while (j < minus.length && minus[j]![1] < start) j++;
    let k = j;
    while (start <= to) {
      const cut = minus[k];
      if (!cut || cut[0] > to) {
        out.push([start, to]);
        break;
      }
      if (cut[0] > start) out.push([start, cut[0] - 1]);
      start = Math.max(start, cut[1] + 1);
      k++;
    }
  }
  return out;
}

/** How many sequence numbers the ranges hold. */
export const countOf = (ranges: readonly Range[]): number => ranges.reduce((n, [from, to]) => n + (to - from + 1), 0);
