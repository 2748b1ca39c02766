// The benchmark runner behind `npm run bench` (after the build): runs every bench/*.mjs in its own
// Node process, one after another so they do not compete for the CPU, passes their output through,
// and exits non-zero if any of them missed its target or failed.
import { spawn } from 'node:child_process';
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

/**
 * Runs one bench with its output passed through as it comes, and keeps the lines that state a
 * verdict against a target (PASS/FAIL, met/NOT met), so the end of a long run lists them all in one
 * place: the figures BENCHMARKS.md's table is kept from.
 */
function runBench(name) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(BENCH_DIR, name)], { stdio: ['inherit', 'pipe', 'inherit'] });
    const verdicts = [];
    let pending = '';
    child.stdout.on('data', (chunk) => {
      process.stdout.write(chunk);
      const lines = (pending + chunk.toString('utf8')).split('\n');
      pending = lines.pop() ?? '';
      verdicts.push(...lines.filter(isVerdict));
    });
    child.once('error', (error) => resolve({ status: error.message, ok: false, verdicts }));
    child.once('close', (code, signal) => {
      if (isVerdict(pending)) verdicts.push(pending);
      resolve({ status: signal ? `signal ${signal}` : `exit ${code}`, ok: code === 0, verdicts });
    });
  });
}

const isVerdict = (line) => /\b(PASS|FAIL|NOT met|met)\b/.test(line);

const failed = [];
const summary = [];
for (const name of benches) {
  console.log(`\n== ${name}`);
  const started = performance.now();
  const result = await runBench(name);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`== ${name}: ${result.status} in ${seconds} s`);
  summary.push(`== ${name}: ${result.status} in ${seconds} s`, ...result.verdicts.map((line) => `   ${line.trim()}`));
  if (!result.ok) failed.push(name);
}
console.log(`\nbench: summary (every verdict line, by bench)\n${summary.join('\n')}`);
console.log(
  failed.length === 0 ? '\nbench: every target met' : `\nbench: failed or missed a target: ${failed.join(', ')}`,
);
process.exit(failed.length === 0 ? 0 : 1);
