import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from './support/run-cli.js';

const EXAMPLE_GPX = fileURLToPath(new URL('../../../examples/track.gpx', import.meta.url));

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'waypost-flags-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('a misspelt flag is named with the nearest one, and nothing runs (exit 2)', () => {
  it.each([
    [['server', '--prot', '8080'], 'waypost server: unknown flag --prot; did you mean --port?'],
    [['server', '--prot=8080'], 'waypost server: unknown flag --prot; did you mean --port?'],
    [['agent', '--souce', `gpx:${EXAMPLE_GPX}`], 'waypost agent: unknown flag --souce; did you mean --source?'],
    [
      ['simulate', '--url', 'http://127.0.0.1:9/locations', '--durration', '1m'],
      'waypost simulate: unknown flag --durration; did you mean --duration?',
    ],
    [['queue', '--databse', 'x.db'], 'waypost queue: unknown flag --databse; did you mean --database?'],
  ])('waypost %j', async (args, message) => {
    const { code, stdout, stderr } = await runCli(args);
    expect(code).toBe(2);
    expect(stderr).toBe(`${message} (see waypost ${args[0]} --help)\n`);
    expect(stdout).toBe('');
  });

  it('a flag nothing resembles gets no guess', async () => {
    const { code, stderr } = await runCli(['server', '--zzzzzzzz']);
    expect(code).toBe(2);
    expect(stderr).toBe('waypost server: unknown flag --zzzzzzzz (see waypost server --help)\n');
  });

  it("the agent's configuration file: deviceid is named as deviceId", async () => {
    const config = join(dir, 'agent.json');
    writeFileSync(config, JSON.stringify({ deviceid: 'truck-9' }));
    const { code, stderr } = await runCli(['agent', '--source', `gpx:${EXAMPLE_GPX}`, '--config', config]);
    expect(code).toBe(2);
    expect(stderr).toBe(`waypost agent: --config ${config}: deviceid: unknown key. Did you mean deviceId?\n`);
  });
});
