// `waypost simulate --faults` (issue 31) as a user runs it: the built command as a child process
// against Waypost's own server on port 0. Two devices per class of silence; the summary names, per
// device, the class injected and the cause the server named, and the count line says how many were
// named and how many were wrong with certainty. A revoked token is a real one (the server refuses
// it), and the devices cut off from the network come back and have their silence explained, in the
// health history and in the ledger's timeline.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type RunningServer } from '@waypost/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { within } from './support/bounded.js';
import { spawnCli } from './support/agent-process.js';
import { FAULT_NAMES } from '../src/simulate/faults.js';

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
      silentAfterSeconds: 10,
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
    'names the injected cause of every device and explains the silence of those that come back',
    { timeout: 120_000 },
    async () => {
      const cli = spawnCli([
        'simulate',
        '--url',
        `${server.url}/locations`,
        '--faults',
        'all=2',
        '--admin-token',
        ADMIN,
        '--presence-interval',
        '5',
        '--duration',
        '6s',
        '--interval',
        '1',
      ]);
      const [code] = await cli.exitedWithin(110_000);
      const out = cli.stdout();
      expect(code, `${out}\n${cli.stderr()}`).toBe(0);
      // One line per device: sim-1 and sim-2 lost their network, sim-3 and sim-4 left the Wi-Fi ...
      for (const [index, fault] of FAULT_NAMES.entries()) {
        for (const n of [2 * index + 1, 2 * index + 2]) expect(out).toMatch(new RegExp(`^sim-${n} +${fault} `, 'm'));
      }
      const counts = /named (\d+) of 24, wrong with certainty 0; silent period explained for 6 of 6 back/.exec(out);
      expect(counts, out).not.toBeNull();
      expect(Number(counts![1])).toBeGreaterThanOrEqual(23);

      // The server's side: a real revoked token, and the silences explained for certain.
      const revoked = await admin('/api/devices/sim-9/health');
      expect(revoked).toMatchObject({ cause: 'auth-refused', inferred: false, authRefused: { code: 'TOKEN_REVOKED' } });
      const ledger = await admin('/api/devices/sim-1/ledger');
      expect(ledger.silentPeriods).toEqual([
        expect.objectContaining({
          cause: 'no-network',
          inferred: false,
          text: expect.stringMatching(/^silent from .+ to .+ because no-network$/),
        }),
      ]);
      // The killed app, started again, says so: the app was not running.
      const killed = await admin('/api/devices/sim-19/health');
      expect(killed.history).toContainEqual(
        expect.objectContaining({ cause: 'app-terminated', inferred: false, silentFrom: expect.any(String) }),
      );
      const wifiOnly = await admin('/api/devices/sim-3/health');
      expect(wifiOnly.history).toContainEqual(
        expect.objectContaining({ cause: 'wifi-only', inferred: false, silentFrom: expect.any(String) }),
      );
    },
  );

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
