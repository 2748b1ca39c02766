// The CPU time of a process on this machine, every thread of it, read from /proc (Linux).
import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU time of every thread of process `pid` so far, in ms: schedstat counts nanoseconds, where
 * /proc/PID/stat counts 10 ms ticks (a view's few ms per PostgreSQL backend would read as 0).
 */
export const processCpuMs = (pid) =>
  readdirSync(`/proc/${pid}/task`).reduce(
    (sum, task) => sum + Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'latin1').split(' ')[0]) / 1e6,
    0,
  );
