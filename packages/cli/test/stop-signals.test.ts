import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { startServer } from '@waypost/server';
import { spawnCli } from './support/agent-process.js';
import { within } from './support/bounded.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'waypost-stop-signals-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The command's TMPDIR: the test sees the temporary folder it makes there, and whether it is removed. */
const commandTmp = (): string => mkdtempSync(join(dir, 'tmp-'));

describe('Ctrl-C and SIGTERM stop simulate and demo cleanly', () => {
  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)(
    'waypost simulate: %s prints the summary so far, removes its temporary folder, exits %i',
    async (signal, code) => {
      const server = await startServer({ port: 0, database: join(dir, 'server.db'), adminToken: 'adm' });
      onTestFinished(() => server.close());
      const ownTmp = commandTmp();
      // An hour of simulated time at 60x: a minute of real time, stopped after its first progress line.
      const simulate = spawnCli(
        ['simulate', '--url', `${server.url}/locations`, '--devices', '2', '--duration', '1h', '--speedup', '60'],
        { ...process.env, TMPDIR: ownTmp },
      );
      await simulate.waitFor(/% \S+\/1h00m {2}recorded \d+/);
      expect(readdirSync(ownTmp)).toEqual([expect.stringMatching(/^waypost-simulate-/)]);
      simulate.child.kill(signal);
      expect(await within(simulate.exited, 10_000, `simulate exiting after ${signal}`), simulate.stderr()).toEqual([
        code,
        null,
      ]);
      expect(simulate.stderr()).toContain(`${signal}: stopping; the summary so far follows`);
      expect(simulate.stdout()).toMatch(/^device\s+recorded\s+delivered\s+queued/);
      expect(simulate.stdout()).toMatch(/\nsim-[0-9a-f]{6}-1\s+\d+/);
      expect(readdirSync(ownTmp)).toEqual([]);
    },
  );

  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)('waypost demo: %s prints the table so far, removes its folder, exits %i', async (signal, code) => {
    const ownTmp = commandTmp();
    const demo = spawnCli(['demo'], { ...process.env, TMPDIR: ownTmp });
    await demo.waitFor(/devices driving for/);
    expect(readdirSync(ownTmp)).toEqual([expect.stringMatching(/^waypost-demo-/)]);
    demo.child.kill(signal);
    expect(await within(demo.exited, 10_000, `demo exiting after ${signal}`), demo.stderr()).toEqual([code, null]);
    expect(demo.stderr()).toContain(`${signal}: stopping; the table so far follows`);
    expect(demo.stdout()).toMatch(/^device\s+recorded\s+delivered\s+queued/);
    expect(demo.stdout()).toMatch(/stopped by \w+ after \S+ of simulated time\n$/);
    expect(readdirSync(ownTmp)).toEqual([]);
  });
});
