import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const DEMO_TIMEOUT_MS = 55_000;

/** Runs the built CLI as a user would (npm test builds it first); bounded by DEMO_TIMEOUT_MS. */
function runBuilt(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), DEMO_TIMEOUT_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out, err });
    });
  });
}

describe('npm run demo (short)', () => {
  it('is built', () => {
    expect(existsSync(BIN), `${BIN} is missing: run npm run build`).toBe(true);
  });

  it('survives the outage, applies the remote command, and loses nothing', { timeout: 60_000 }, async () => {
    const { code, out, err } = await runBuilt(['demo', '--short']);
    expect({ code, err: code === 0 ? '' : err }).toEqual({ code: 0, err: '' });
    const lines = out.split('\n');
    const header = lines.findIndex((line) => line.startsWith('device '));
    expect(lines[header]).toMatch(
      /^device\s+recorded\s+delivered\s+queued\s+duplicates\s+lost\s+stored\s+stored twice\s+requests\s+failed\s+req before\s+req after\s+rec\/req after$/,
    );
    const rows = lines.slice(header + 2, header + 6).map((line) => line.trim().split(/\s+/));
    expect(rows.map((row) => row[0])).toEqual(['sim-1', 'sim-2', 'sim-3', 'total']);
    for (const [, recorded, delivered, queued, , lost, stored, twice, , failed] of rows.slice(0, 3)) {
      expect(Number(recorded)).toBeGreaterThan(100);
      expect({ delivered, queued, lost, stored, twice }).toEqual({
        delivered: recorded,
        queued: '0',
        lost: '0',
        stored: recorded,
        twice: '0',
      });
      // The outage made uploads fail: the records waited in the queue instead.
      expect(Number(failed)).toBeGreaterThan(0);
    }
    // sim-2's uploads became batches after the remote command; the others still send one record each.
    const perRequestAfter = Object.fromEntries(rows.slice(0, 3).map((row) => [row[0], Number(row[12])]));
    expect(perRequestAfter['sim-2']).toBeGreaterThan(3);
    expect(perRequestAfter['sim-1']).toBe(1);
    expect(out).toContain('sim-2 ran remote command setConfig');
    expect(out).toContain('OK: every recorded location reached the service exactly once.');
    expect(err).toContain('service DOWN');
    expect(err).toMatch(/service BACK on port \d+, same database: \d+ uploads failed meanwhile, \d+ records queued/);
  });
});
