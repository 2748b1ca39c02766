// What every benchmark shares: how a result line reads, how repeated runs are summarised, and
// where scratch databases live. Each bench prints one line per comparison and exits 1 on a miss.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const number = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

export const formatRate = (rate) => `${number.format(rate)} rec/s`;
export const formatMb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * Prints `bench: label SDK vs floor FLOOR -> ratio R (target >= T) PASS|FAIL` and returns whether it
 * passed; with no target the line is informational (`(reported, no target)`) and always passes.
 * `ratio`, when given, is the verdict's (the median of rounds' own ratios), not the medians' quotient.
 */
export function reportRatio(bench, label, sdkRate, floorRate, target, note = '', ratio = sdkRate / floorRate) {
  const pass = target === undefined || ratio >= target;
  const verdict =
    target === undefined
      ? `(reported, no target${note ? `: ${note}` : ''})`
      : `(target >= ${target}) ${pass ? 'PASS' : 'FAIL'}`;
  console.log(
    `${bench}: ${label} ${formatRate(sdkRate)} vs floor ${formatRate(floorRate)} -> ratio ${ratio.toFixed(2)} ${verdict}`,
  );
  return pass;
}

/** A scratch directory removed at exit, so a failed run leaves no database behind. */
export function scratchDir(prefix) {
  const dir = mkdtempSync(join(tmpdir(), `waypost-bench-${prefix}-`));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
