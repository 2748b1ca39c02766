import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { onTestFinished } from 'vitest';

// The real daemon: Debian's gpsd, fed through a pseudo-terminal by gpsfake's engine (python3-gps).
// scripts/run-tests.mjs installs both when missing; without them a test fails, never skips.
const GPSD = '/usr/sbin/gpsd';
const PYTHON = '/usr/bin/python3';
const GPSFAKE = fileURLToPath(new URL('./gpsfake.py', import.meta.url));

export interface GpsfakeSession {
  /** The port the real gpsd listens on. */
  port: number;
  /** Starts the replay (connect the client under test first). */
  go: () => void;
}

export function requireGpsd(): void {
  const fake = existsSync(PYTHON) && spawnSync(PYTHON, ['-c', 'import gps.fake'], { stdio: 'ignore' }).status === 0;
  if (!existsSync(GPSD) || !fake) {
    throw new Error('gpsd and python3-gps are needed: apt-get install -y gpsd python3-gps (npm test installs them)');
  }
}

/**
 * gpsd replaying an NMEA log, ended when the test ends whatever its outcome: stdin closed (the
 * script stops and reaps gpsd, then exits), and if it has not exited within 5 s its whole process
 * group is killed. The exit is awaited, so nothing outlives the test. gpsd's control socket
 * (gpsfake-<pid>.sock, which gpsd leaves behind) goes in a folder of the session's own, removed
 * after the exit.
 */
export async function startGpsfake(log: string): Promise<GpsfakeSession> {
  requireGpsd();
  const sockets = mkdtempSync(join(tmpdir(), 'waypost-gpsfake-'));
  const child = spawn(PYTHON, [GPSFAKE, log], {
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
    env: { ...process.env, WRITE_PAD: '0.005', TMPDIR: sockets },
  });
  const exited = once(child, 'exit');
  onTestFinished(async () => {
    child.stdin.end();
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // gone already
      }
    }, 5_000);
    await exited;
    clearTimeout(timer);
    rmSync(sockets, { recursive: true, force: true });
  });
  let out = '';
  let err = '';
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`gpsfake did not start: ${err}`)), 20_000);
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /^ready (\d+)$/m.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    child.once('exit', (code) => reject(new Error(`gpsfake exited (${code}): ${err}`)));
  });
  return { port, go: () => child.stdin.write('go\n') };
}

/**
 * A TCP relay in front of gpsd that starts the replay once a client has sent its first command
 * (its `?WATCH`): for a client whose connection the test cannot see, such as a program the test
 * runs, so that no fix is played before anyone listens.
 */
export async function relayStartingOnWatch(gpsd: GpsfakeSession): Promise<number> {
  const sockets = new Set<import('node:net').Socket>();
  const relay = createServer((client) => {
    const upstream = connect(gpsd.port, '127.0.0.1');
    sockets.add(client).add(upstream);
    client.once('data', () => setImmediate(gpsd.go));
    client.pipe(upstream).pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  onTestFinished(async () => {
    sockets.forEach((socket) => socket.destroy());
    await new Promise((resolve) => relay.close(resolve));
  });
  return (relay.address() as { port: number }).port;
}
