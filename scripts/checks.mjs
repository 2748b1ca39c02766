// The static checks `npm test` runs before the suite: the linter, the formatter and the type check,
// side by side (each is one process on one core; in turn they took 43 s, together about 36 s). Each
// one's output is printed whole when it ends, and the run fails naming every check that failed.
import { spawn } from 'node:child_process';

const CHECKS = ['lint', 'format:check', 'typecheck'];

const run = (script) =>
  new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('close', (code) => {
      process.stdout.write(`\n> npm run ${script}: ${code === 0 ? 'passed' : `failed (exit ${code})`}\n`);
      process.stdout.write(Buffer.concat(output));
      resolve(code === 0 ? null : script);
    });
  });

const failed = (await Promise.all(CHECKS.map(run))).filter((script) => script !== null);
if (failed.length > 0) {
  console.error(`\nwaypost: ${failed.map((script) => `npm run ${script}`).join(', ')} failed (output above)`);
  process.exit(1);
}
