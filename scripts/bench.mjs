// The benchmark runner behind `npm run bench` (after the build): runs every bench/*.mjs in its own
// Node process, one after another so they do not compete for the CPU, passes their output through,
// and exits non-zero if any of them missed its target or failed.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const BENCH_DIR = fileURLToPath(new URL('../bench/', import.meta.url));
// Fixed order for the SDK's benches; any other bench (the server's ingest.mjs) runs after them.
const ORDER = ['enqueue.mjs', 'drain.mjs', 'memory.mjs', 'latency.mjs'];
const rank = (name) => (ORDER.includes(name) ? ORDER.indexOf(name) : ORDER.length);
const only = process.argv.slice(2);

const benches = readdirSync(BENCH_DIR)
  .filter((name) => name.endsWith('.mjs'))
  .filter((name) => only.length === 0 || only.some((wanted) => name.startsWith(wanted)))
  .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
if (benches.length === 0) {
  console.error(`bench: no benchmark in bench/ matches ${only.join(', ') || '*.mjs'}`);
  process.exit(1);
}

const failed = [];
for (const name of benches) {
  console.log(`\n== ${name}`);
  const started = performance.now();
  const result = spawnSync(process.execPath, [join(BENCH_DIR, name)], { stdio: 'inherit' });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const status = result.error
    ? result.error.message
    : result.signal
      ? `signal ${result.signal}`
      : `exit ${result.status}`;
  console.log(`== ${name}: ${status} in ${seconds} s`);
  if (result.error || result.status !== 0) failed.push(name);
}
console.log(
  failed.length === 0 ? '\nbench: every target met' : `\nbench: failed or missed a target: ${failed.join(', ')}`,
);
process.exit(failed.length === 0 ? 0 : 1);
