import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseDurationMs } from '../src/args.js';
import { main } from '../src/cli.js';
import { captureIo } from './support/capture-io.js';
import { runCli } from './support/run-cli.js';

async function run(...argv: string[]) {
  const io = captureIo();
  const code = await main(argv, io);
  return { code, out: io.out(), err: io.err() };
}

describe('waypost command line', () => {
  it('prints the list of commands with --help and exits 0', async () => {
    const { code, out } = await run('--help');
    expect(code).toBe(0);
    for (const name of ['server', 'simulate', 'queue', 'log', 'demo']) expect(out).toContain(`  ${name} `);
  });

  it('--version prints the version of the built command and exits 0', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    expect(await runCli(['--version'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('exits 2 with the usage on stderr when no command is given', async () => {
    const { code, out, err } = await run();
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toContain('Usage: waypost <command>');
  });

  it('names an unknown command', async () => {
    const { code, err } = await run('simulat');
    expect(code).toBe(2);
    expect(err).toContain('unknown command "simulat"');
  });

  it.each(['server', 'simulate', 'queue', 'log', 'demo'])('prints help for %s and exits 0', async (name) => {
    const { code, out, err } = await run(name, '--help');
    expect(code).toBe(0);
    expect(out).toMatch(new RegExp(`^Usage: waypost ${name}`));
    expect(out).toContain('Exit codes:');
    expect(err).toBe('');
  });

  it('names an unknown flag and exits 2', async () => {
    const { code, err } = await run('simulate', '--url', 'http://127.0.0.1:1/locations', '--frobnicate');
    expect(code).toBe(2);
    expect(err).toContain('waypost simulate: unknown flag --frobnicate');
  });

  it('names a flag whose value is missing', async () => {
    const { code, err } = await run('simulate', '--url');
    expect(code).toBe(2);
    expect(err).toContain('flag --url needs a value');
  });

  it('names a flag given a value it does not take', async () => {
    const { code, err } = await run('simulate', '--url', 'http://127.0.0.1:1/', '--json=yes');
    expect(code).toBe(2);
    expect(err).toContain('--json does not take a value');
  });

  it('rejects a required flag left out', async () => {
    const { code, err } = await run('simulate', '--devices', '2');
    expect(code).toBe(2);
    expect(err).toContain('--url is required');
  });

  it.each([
    [['--devices', 'three'], '--devices "three" is not an integer from 1 to 1000'],
    [['--devices', '0'], '--devices "0" is not an integer from 1 to 1000'],
    [['--duration', 'soon'], '--duration "soon" is not a duration such as 90s, 30m or 1h30m'],
    [['--speedup=-1'], '--speedup "-1" is not a number of at least 0'],
    [['--speedup', '-1'], 'flag --speedup needs a value (write a value that starts with a dash as --speedup=-...)'],
  ])('rejects a malformed value %j', async (flags, message) => {
    const { code, err } = await run('simulate', '--url', 'http://127.0.0.1:1/locations', ...flags);
    expect(code).toBe(2);
    expect(err).toContain(message);
  });

  it('rejects a --url that is not a URL', async () => {
    const { code, err } = await run('simulate', '--url', 'localhost-ish');
    expect(code).toBe(2);
    expect(err).toContain('--url "localhost-ish" is not a URL');
  });

  it('rejects a port out of range for the server', async () => {
    const { code, err } = await run('server', '--port', '70000');
    expect(code).toBe(2);
    expect(err).toContain('--port "70000" is not an integer from 0 to 65535');
  });

  it('asks queue for an action and names a wrong one', async () => {
    expect((await run('queue', '--database', 'x.db')).err).toContain('say what to do: count, list, sync, destroy');
    const wrong = await run('queue', '--database', 'x.db', 'purge');
    expect(wrong.code).toBe(2);
    expect(wrong.err).toContain('unknown action "purge"');
  });

  it('rejects a flag that does not belong to the queue action', async () => {
    const { code, err } = await run('queue', '--database', 'x.db', 'count', '--limit', '3');
    expect(code).toBe(2);
    expect(err).toContain('--limit applies to list only');
  });

  it('rejects positional arguments where a command takes none', async () => {
    const { code, err } = await run('log', '--database', 'x.db', 'extra');
    expect(code).toBe(2);
    expect(err).toContain('unexpected argument extra');
  });
});

describe('durations', () => {
  it.each([
    ['90', 90_000],
    ['90s', 90_000],
    ['30m', 1_800_000],
    ['1h30m', 5_400_000],
    ['500ms', 500],
    ['2.5m', 150_000],
  ])('reads %s', (text, ms) => {
    expect(parseDurationMs(text)).toBe(ms);
  });

  it.each(['', 'm', '30 minutes', '1d', '-5s', '5s junk'])('rejects %j', (text) => {
    expect(parseDurationMs(text)).toBeNull();
  });
});
