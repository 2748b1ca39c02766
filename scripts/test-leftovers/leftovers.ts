import type { ProcessInfo } from './processes.js';

const VITEST_WORKER = /[\\/]vitest[\\/]dist[\\/]workers[\\/]/;
const ESBUILD_SERVICE = /\besbuild\b.* --service\b/;

/**
 * The processes a run left behind: those carrying its marker, less the runner's own machinery
 * (vitest's main process, its workers, and the esbuild service a worker starts when a test
 * transforms code: they end with the pool, after this check), plus the zombies they hold (a zombie
 * has no environment to carry the marker; its parent does).
 */
export function leftoverProcesses(all: readonly ProcessInfo[], runner: number): ProcessInfo[] {
  const byPid = new Map(all.map((p) => [p.pid, p]));
  const isWorker = (p: ProcessInfo | undefined) =>
    p !== undefined && p.ppid === runner && VITEST_WORKER.test(p.command);
  const isMachinery = (p: ProcessInfo) =>
    p.pid === runner ||
    isWorker(p) ||
    (ESBUILD_SERVICE.test(p.command) && (p.ppid === runner || isWorker(byPid.get(p.ppid))));
  const left = all.filter((p) => p.marked && !isMachinery(p));
  const leftPids = new Set(left.map((p) => p.pid));
  const zombies = all.filter((p) => p.state === 'Z' && !p.marked && leftPids.has(p.ppid));
  return [...left, ...zombies];
}

/** Bounded: a runaway test may leave thousands of files; the first ones say enough. */
const MAX_LISTED = 50;

const listed = (lines: string[]): string[] =>
  lines.length > MAX_LISTED ? [...lines.slice(0, MAX_LISTED), `  ... and ${lines.length - MAX_LISTED} more`] : lines;

/** The failure message naming what is left, or null when the run left nothing. */
export function describeLeftovers(processes: readonly ProcessInfo[], entries: readonly string[]): string | null {
  if (processes.length === 0 && entries.length === 0) return null;
  const lines = ['The test run left things behind (every test must end what it started, whatever its outcome):'];
  if (processes.length > 0) {
    lines.push(`${processes.length} process(es) still running:`);
    lines.push(
      ...listed(
        processes.map((p) => `  pid ${p.pid} (parent ${p.ppid}, state ${p.state}): ${p.command.slice(0, 300)}`),
      ),
    );
  }
  if (entries.length > 0) {
    lines.push(`${entries.length} temporary file(s) or folder(s) still there:`);
    lines.push(...listed(entries.map((entry) => `  ${entry}`)));
  }
  lines.push('(they have been removed now: processes killed, files deleted)');
  return lines.join('\n');
}
