// The README's agent and command-line sections, run as a user runs them: shell lines in a folder of
// their own, the built `waypost` command through npx, a real Waypost server.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN } from '../support/agent-process.js';
import { block } from './readme-blocks.js';
import { pointAt, runShell, startWorld, storedCount } from './readme-world.js';

const TRACK_POINTS = (
  readFileSync(new URL('../../../../examples/track.gpx', import.meta.url), 'utf8').match(/<trkpt /g) ?? []
).length;

/** The README's system paths, moved into the test's folder. */
const intoFolder = (text: string, dir: string) => text.replace(/(^|[\s"'>])\/(etc|var)\//g, `$1${dir}/$2/`);

describe('README: the agent', () => {
  it('the --config file is read as shown (a GPX file standing in for gpsd), and its device_id is used', async () => {
    const { dir, server } = await startWorld();
    const config = join(dir, 'agent.json');
    writeFileSync(config, intoFolder(pointAt(block('agent-config').code, server), dir));
    mkdirSync(join(dir, 'var/lib/waypost'), { recursive: true });
    const agent = runShell(
      `npx waypost agent --config ${config} --source gpx:./examples/track.gpx --replay-speed 0 --exit-when-done`,
      dir,
    );
    expect(await agent.exited, agent.output()).toBe(0);
    expect(TRACK_POINTS).toBeGreaterThan(200);
    expect(await storedCount(server, 'truck-7')).toBe(TRACK_POINTS);
  });

  it('the systemd recipe writes a unit for the config file (systemctl and journalctl need systemd)', async () => {
    const { dir, server } = await startWorld();
    mkdirSync(join(dir, 'etc/systemd/system'), { recursive: true }); // there on any systemd host
    const lines = block('agent-systemd')
      .code.split('\n')
      .map((line) => line.replace(/\s+#.*$/, '').trim())
      .filter((line) => line && !/^(systemctl|journalctl) /.test(line));
    expect(lines).toHaveLength(2);
    for (const line of lines) {
      const step = runShell(intoFolder(line, dir), dir);
      if (line.startsWith('mkdir')) {
        expect(await step.exited).toBe(0);
        writeFileSync(
          join(dir, 'etc/waypost/agent.json'),
          intoFolder(pointAt(block('agent-config').code, server), dir),
        );
      } else {
        expect(await step.exited, step.output()).toBe(0);
      }
    }
    const unit = readFileSync(join(dir, 'etc/systemd/system/waypost-agent.service'), 'utf8');
    expect(unit).toMatch(/^Restart=always$/m);
    expect(unit).toContain(`--config ${dir}/etc/waypost/agent.json`);
  });
});

describe('README: the command line', () => {
  const synopsis = block('cli-synopsis').code;
  const commands = [...synopsis.matchAll(/^waypost (\w+)/gm)].map((m) => m[1]!);

  it.each(commands)('the synopsis of `waypost %s` lists exactly the flags its --help lists', (command) => {
    const section = synopsis.split(/^(?=waypost )/m).find((s) => s.startsWith(`waypost ${command} `))!;
    const flags = (text: string) => new Set([...text.matchAll(/--[a-z][a-z-]+/g)].map((m) => m[0]));
    const help = spawnSync(process.execPath, [BIN, command, '--help'], { encoding: 'utf8' });
    expect(help.status).toBe(0);
    const helpFlags = flags(help.stdout + help.stderr);
    helpFlags.delete('--help');
    const documented = flags(section.replace(/\(also:.*\)/, ''));
    expect([...documented].sort()).toEqual([...helpFlags].sort());
  });
});
