// The anchor's open-source demo server (transistorsoft/background-geolocation-console: Express +
// Sequelize on SQLite), run beside Waypost in the same bench run so that "x anchor" is a ratio
// measured on this machine, now - not a figure carried over from another machine. Its code is never
// part of this repository: WAYPOST_ANCHOR_DIR names a clone with its npm packages installed
// (BENCHMARKS.md says how to make one).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';

export const ANCHOR_DIR = process.env.WAYPOST_ANCHOR_DIR;

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts the anchor on a fresh SQLite file (it opens src/server/database/db/ under its working
 * directory) and resolves once it listens: `{ url, stored(), close() }`.
 */
export async function startAnchor(dir = ANCHOR_DIR) {
  const cwd = mkdtempSync(join(tmpdir(), 'waypost-anchor-'));
  const dbDir = join(cwd, 'src/server/database/db');
  mkdirSync(dbDir, { recursive: true });
  const port = await freePort();
  const child = spawn(process.execPath, [join(dir, 'server/index.js')], {
    cwd,
    env: { ...process.env, PORT: String(port), NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stderr.resume();
  await new Promise((resolve, reject) => {
    let seen = '';
    child.stdout.on('data', (chunk) => {
      seen = (seen + chunk).slice(-4096);
      if (seen.includes(`port: ${port}`)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the anchor exited with ${code} before listening`)));
  });
  child.stdout.resume();
  return {
    url: `http://127.0.0.1:${port}`,
    /** Rows in its locations table: the anchor answers {success:true}, without a count. */
    stored() {
      const db = new Database(join(dbDir, 'background-geolocation.db'), { readonly: true });
      try {
        return db.prepare('SELECT count(*) AS n FROM locations').get().n;
      } finally {
        db.close();
      }
    },
    async close() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      rmSync(cwd, { recursive: true, force: true });
    },
  };
}
