// Installs the workspace's dependencies when they are missing or older than the lock file, so
// that `npm test`, `npm run demo` and `npm run bench` work on a fresh clone with no other step.
import { execSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';

const marker = 'node_modules/.package-lock.json';
const stale = !existsSync(marker) || statSync(marker).mtimeMs < statSync('package-lock.json').mtimeMs;
let nativeOk = true;
try {
  execSync(`node -e "new (require('better-sqlite3'))(':memory:').close()"`, { stdio: 'ignore' });
} catch {
  nativeOk = false;
}
if (stale || !nativeOk) {
  console.error('waypost: installing dependencies (npm ci; better-sqlite3 may build from source, about 90 s)...');
  execSync('npm ci --no-audit --no-fund', { stdio: 'inherit' });
}
