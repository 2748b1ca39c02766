import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEPLOY } from './services.js';

/**
 * The systemd units of docs/deploy/ as systemd itself reads them: `systemd-analyze verify` under a
 * root of their own (--root), holding the units where the guide puts them, systemd's own unit
 * directory (the targets they name) and a stand-in for each program they start (verify checks that
 * ExecStart's program exists and is executable). systemd-analyze warns about a bad line and still
 * exits 0: any output is a failure.
 */
const UNITS = ['waypost.service', 'nats-server.service'];
const SYSTEMD_UNITS = '/usr/lib/systemd/system';

const root = mkdtempSync(join(tmpdir(), 'waypost-units-'));

function rootWith(units: Record<string, string>): string {
  const dir = mkdtempSync(join(root, 'root-'));
  mkdirSync(join(dir, 'etc/systemd/system'), { recursive: true });
  mkdirSync(join(dir, 'usr/lib/systemd'), { recursive: true });
  cpSync(SYSTEMD_UNITS, join(dir, 'usr/lib/systemd/system'), { recursive: true });
  for (const [name, text] of Object.entries(units)) {
    writeFileSync(join(dir, 'etc/systemd/system', name), text);
    // The program ExecStart names, as the guide installs it.
    const program = /^ExecStart=(\S+)/m.exec(text)?.[1];
    if (program) {
      mkdirSync(join(dir, program, '..'), { recursive: true });
      writeFileSync(join(dir, program), '#!/bin/sh\n');
      chmodSync(join(dir, program), 0o755);
    }
  }
  return dir;
}

function verify(dir: string, units: readonly string[]): { status: number | null; output: string } {
  const result = spawnSync(
    'systemd-analyze',
    ['verify', `--root=${dir}`, ...units.map((unit) => `/etc/systemd/system/${unit}`)],
    { encoding: 'utf8' },
  );
  if (result.error) throw new Error(`systemd-analyze could not run (apt-get install systemd): ${result.error.message}`);
  return { status: result.status, output: `${result.stdout}${result.stderr}`.trim() };
}

const asShipped = Object.fromEntries(UNITS.map((unit) => [unit, readFileSync(join(DEPLOY, unit), 'utf8')]));

describe('the systemd units of docs/deploy/', () => {
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('pass systemd-analyze verify without a warning', () => {
    expect(verify(rootWith(asShipped), UNITS)).toEqual({ status: 0, output: '' });
  });

  it('the check names a unit systemd would read wrongly (a misspelt signal, a program missing)', () => {
    const broken = asShipped['waypost.service']!.replace('KillSignal=SIGTERM', 'KillSignal=SIGTREM');
    const misspelt = verify(rootWith({ 'waypost.service': broken }), ['waypost.service']);
    expect(misspelt.output).toContain('waypost.service:');
    expect(misspelt.output).toContain('SIGTREM');
    const dir = rootWith(asShipped);
    rmSync(join(dir, 'usr/bin/waypost'));
    const missing = verify(dir, ['waypost.service']);
    expect(missing.status).not.toBe(0);
    expect(missing.output).toContain('/usr/bin/waypost');
  });
});
