import { readdirSync, readFileSync } from 'node:fs';

/** A process as /proc shows it. */
export interface ProcessInfo {
  pid: number;
  ppid: number;
  /** R, S, D, Z (zombie), T, ... */
  state: string;
  /** Its command line, or `[name]` when it has none (a zombie, a kernel thread). */
  command: string;
  /** Whether its environment carries the run's marker: it was started, directly or not, by this run. */
  marked: boolean;
}

const read = (path: string): string | null => {
  try {
    return readFileSync(path, 'latin1');
  } catch {
    return null; // gone meanwhile, or not ours to read
  }
};

/** /proc/<pid>/stat: "pid (comm) state ppid ...", where comm may itself hold spaces and parentheses. */
function parseStat(stat: string): { name: string; state: string; ppid: number } | null {
  const open = stat.indexOf('(');
  const close = stat.lastIndexOf(')');
  if (open < 0 || close < open) return null;
  const [state, ppid] = stat
    .slice(close + 2)
    .split(' ')
    .slice(0, 2);
  return { name: stat.slice(open + 1, close), state: state ?? '?', ppid: Number(ppid) };
}

/**
 * Every process of the machine, and whether it carries `marker` (NAME=value) in its environment.
 * Linux only (/proc); elsewhere the list is empty and only temporary files are checked.
 */
export function listProcesses(marker: string): ProcessInfo[] {
  let pids: number[];
  try {
    pids = readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .map(Number);
  } catch {
    return [];
  }
  const processes: ProcessInfo[] = [];
  for (const pid of pids) {
    const stat = read(`/proc/${pid}/stat`);
    const parsed = stat === null ? null : parseStat(stat);
    if (!parsed) continue;
    const cmdline = (read(`/proc/${pid}/cmdline`) ?? '').split('\0').filter(Boolean).join(' ');
    const environ = read(`/proc/${pid}/environ`) ?? '';
    processes.push({
      pid,
      ppid: parsed.ppid,
      state: parsed.state,
      command: cmdline || `[${parsed.name}]`,
      marked: environ.split('\0').includes(marker),
    });
  }
  return processes;
}
