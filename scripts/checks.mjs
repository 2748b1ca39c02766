// The static checks `npm test` runs before the suite: the linter, the formatter and the type check.
// Their npm scripts chain several commands each (eslint then spectral; four tsc programs), and run
// one after another they left a core idle: the type check alone was the critical path. So each
// command of the three scripts is read from package.json (`a && b` split, `npm run x` expanded) and
// the commands run as one pool, as many at once as there are cores, longest first. Each one's output
// is printed whole when it ends, and the run fails naming every command that failed.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';

const SCRIPTS = ['lint', 'format:check', 'typecheck'];
/** Longest first (seconds on a quiet 2-core machine, 2026-11-29); unknown commands go first. */
const EXPECTED_SECONDS = [
  ['tsconfig.test.json', 12],
  ['prettier', 11],
  ['eslint', 9],
  ['tsconfig.browser-test.json', 6],
  ['pages/tsconfig.json', 4],
  ['spectral', 3],
  ['track-worker', 1],
];

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const scripts = JSON.parse(readFileSync(`${ROOT}/package.json`, 'utf8')).scripts;

/** The shell commands a script runs, with `npm run <script>` replaced by that script's own. */
function commandsOf(script) {
  const text = scripts[script];
  if (typeof text !== 'string') throw new Error(`checks: package.json has no script "${script}"`);
  return text.split(' && ').flatMap((part) => {
    const nested = /^npm run (\S+)$/.exec(part.trim());
    return nested ? commandsOf(nested[1]) : [part.trim()];
  });
}

const expected = (command) => EXPECTED_SECONDS.find(([key]) => command.includes(key))?.[1] ?? Infinity;
const queue = SCRIPTS.flatMap(commandsOf).sort((a, b) => expected(b) - expected(a));

const run = (command) =>
  new Promise((resolve) => {
    // As npm would run it: the project's binaries on PATH.
    const env = { ...process.env, PATH: `${ROOT}/node_modules/.bin:${process.env.PATH}` };
    const child = spawn('sh', ['-c', command], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('close', (code) => {
      process.stdout.write(`\n> ${command}: ${code === 0 ? 'passed' : `failed (exit ${code})`}\n`);
      process.stdout.write(Buffer.concat(output));
      resolve(code === 0 ? null : command);
    });
  });

const failed = [];
async function worker() {
  for (let command = queue.shift(); command !== undefined; command = queue.shift()) {
    const failure = await run(command);
    if (failure !== null) failed.push(failure);
  }
}
await Promise.all(Array.from({ length: Math.max(2, availableParallelism()) }, worker));
if (failed.length > 0) {
  console.error(`\nwaypost: ${failed.join(', ')} failed (output above)`);
  process.exit(1);
}
