// `waypost simulate --faults` (issues 31, 39) as a user runs it: the built command as a child
// process against Waypost's own server on port 0, in real time. The summary prints, per device, the
// class injected, where it was made and the truth, against what the server named; the count line
// says how many of the devices it still heard from it named in time, how many cut off it explained
// for certain on their return and how many were ever named wrongly with certainty. A revoked token
// is a real one (the server refuses it), and the devices cut off come back and have their silence
// explained, in the health history and the ledger's timeline.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type RunningServer } from '@waypost/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { within } from './support/bounded.js';
import { spawnCli } from './support/agent-process.js';

const ADMIN = 'faults-admin';

describe('waypost simulate --faults, as a child process', () => {
  const dir = mkdtempSync(join(tmpdir(), 'waypost-faults-cli-'));
  let server: RunningServer;
  beforeAll(async () => {
    // Its own clock (real time), a short silence threshold so the cut-off devices are named soon.
    server = await startServer({
      port: 0,
      adminToken: ADMIN,
      database: join(dir, 'server.db'),
      silentAfterSeconds: 8,
    });
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const admin = async (path: string) =>
    (await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${ADMIN}` } })).json() as Promise<
      Record<string, unknown>
    >;

  it(
    "prints the server's answers against the injected truth, per device and per class, and exits 0 on the bar",
    { timeout: 120_000 },
    async () => {
      const cli = spawnCli([
        'simulate',
        '--url',
        `${server.url}/locations`,
        '--faults',
        'no-network,network-drops,auth-refused,killed,parked,clock-off',
        '--devices',
        '7',
        '--device-prefix',
        'cli-',
        '--admin-token',
        ADMIN,
        '--presence-interval',
        '4',
        '--duration',
        '5s',
        '--interval',
        '1',
      ]);
      const [code] = await cli.exitedWithin(110_000);
      const out = cli.stdout();
      expect(code, `${out}\n${cli.stderr()}`).toBe(0);
      // One line per device: the class, where it was made, the truth; the seventh a control.
      const lines: [string, string, string, string][] = [
        ['cli-1', 'no-network', 'device', 'no-network'],
        ['cli-2', 'network-drops', 'path', 'no-network'],
        ['cli-3', 'auth-refused', 'service', 'auth-refused'],
        ['cli-4', 'killed', 'device', 'app-terminated'],
        ['cli-5', 'parked', 'device', 'stationary'],
        ['cli-6', 'clock-off', 'device', 'clock-off'],
      ];
      for (const [device, fault, where, truth] of lines) {
        expect(out).toMatch(new RegExp(`^${device} +${fault} +${where} +${truth} `, 'm'));
      }
      expect(out).toMatch(/^cli-7 +- +- +- +live\/reporting \(certain\) .* control$/m);
      expect(out).toMatch(
        /^heard: named 3 of 3 within [\d.]+s; cut off: likely cause while silent for 3 of 3 \(the truth for \d\), explained for certain on return 3 of 3; wrong with certainty 0 \(\d+ looks and every device's history\)$/m,
      );

      // The server's side: a real revoked token, and the silences explained for certain.
      const revoked = await admin('/api/devices/cli-3/health');
      expect(revoked).toMatchObject({ cause: 'auth-refused', inferred: false, authRefused: { code: 'TOKEN_REVOKED' } });
      const ledger = await admin('/api/devices/cli-1/ledger');
      expect(ledger.silentPeriods).toEqual([
        expect.objectContaining({
          cause: 'no-network',
          inferred: false,
          text: expect.stringMatching(/^silent from .+ to .+ because no-network$/),
        }),
      ]);
      // The path dropped cli-2's connections: the server saw nothing until it was back.
      const dropped = await admin('/api/devices/cli-2/health');
      expect(dropped.history).toContainEqual(
        expect.objectContaining({ cause: 'no-network', inferred: false, silentFrom: expect.any(String) }),
      );
    },
  );

  it('gives every run devices of its own, healthy, their clocks on real time', { timeout: 60_000 }, async () => {
    const run = async () => {
      const cli = spawnCli([
        'simulate',
        '--url',
        `${server.url}/locations`,
        '--devices',
        '1',
        '--duration',
        '2s',
        '--interval',
        '1',
        '--admin-token',
        ADMIN,
        '--json',
      ]);
      const [code] = await cli.exitedWithin(50_000);
      expect(code, cli.stderr()).toBe(0);
      return (JSON.parse(cli.stdout()) as { devices: { device: string }[] }).devices[0]!.device;
    };
    const started = Date.now();
    const first = await run();
    const second = await run();
    const ended = Date.now();
    expect(first).toMatch(/^sim-[0-9a-f]{6}-1$/);
    expect(second).toMatch(/^sim-[0-9a-f]{6}-1$/);
    expect(second).not.toBe(first);
    for (const device of [first, second]) {
      // Healthy as the server sees it (moving or stopped): its clock agrees with the server's.
      const health = await admin(`/api/devices/${device}/health`);
      expect(health).toMatchObject({ inferred: false, cause: expect.stringMatching(/^(reporting|stationary)$/) });
      // Its records were made in the run's real time.
      const records = (await admin(`/api/devices/${device}/locations?format=json`)) as unknown as {
        timestamp: string;
      }[];
      expect(records.length).toBeGreaterThan(0);
      for (const { timestamp } of records) {
        expect(Date.parse(timestamp)).toBeGreaterThanOrEqual(started - 1_000);
        expect(Date.parse(timestamp)).toBeLessThanOrEqual(ended);
      }
    }
  });

  it('says which class was meant by a misspelt one, and exits 2 before simulating', async () => {
    const cli = spawnCli([
      'simulate',
      '--url',
      `${server.url}/locations`,
      '--faults',
      'parked,no-netwrok',
      '--admin-token',
      ADMIN,
    ]);
    const [code] = await within(cli.exited, 20_000, 'waypost simulate to refuse the spec');
    expect(code).toBe(2);
    expect(cli.stderr()).toMatch(/--faults unknown class "no-netwrok"; did you mean no-network\?/);
    expect(cli.stderr()).not.toContain('simulating');
  });

  it('refuses --faults without the admin token, naming why it needs it', async () => {
    const cli = spawnCli(['simulate', '--url', `${server.url}/locations`, '--faults', 'all'], {
      ...process.env,
      WAYPOST_ADMIN_TOKEN: '',
    });
    const [code] = await within(cli.exited, 20_000, 'waypost simulate to refuse');
    expect(code).toBe(2);
    expect(cli.stderr()).toMatch(/--faults needs --admin-token/);
  });
});
