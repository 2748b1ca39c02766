// `waypost queue sync` and `waypost simulate` as child processes against servers that refuse or
// are not there (issue 17): the reason is printed, and a run that delivered nothing fails.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createBackgroundGeolocation, ManualNetwork } from '@waypost/node';
import { freePort } from './support/free-port.js';
import { runCli } from './support/run-cli.js';
import { startRefusingServer } from './support/refusing-server.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'waypost-first-walk-cli-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** `waypost simulate` of one device to `url`, as fast as possible, with a short drain. */
const simulateTo = (url: string, duration: string) =>
  runCli([
    'simulate',
    '--url',
    url,
    '--devices',
    '1',
    '--duration',
    duration,
    '--speedup',
    '0',
    '--drain-timeout',
    '1s',
    '--database-dir',
    join(dir, 'queues'),
  ]);

describe('the CLI says why an upload failed', () => {
  it("`waypost queue sync` prints the server's code and message and exits 1", async () => {
    const refusing = await startRefusingServer(
      400,
      JSON.stringify({ error: 'No device named: send a device_id', code: 'NO_DEVICE' }),
    );
    const database = join(dir, 'device.db');
    const bg = await createBackgroundGeolocation({ database, network: new ManualNetwork('none') });
    await bg.ready({ http: { url: refusing.url } });
    await bg.store.insertLocation({ latitude: 45.5, longitude: -73.56, accuracy: 5 });
    await bg.close();
    const { code, stdout, stderr } = await runCli(['queue', '--database', database, 'sync']);
    expect(code).toBe(1);
    expect(stdout).toBe('delivered 0, queued 1\n');
    expect(stderr).toContain(
      'upload stopped (HTTP 400 NO_DEVICE: No device named: send a device_id); 1 records stay queued',
    );
  });

  it('`waypost simulate` against a closed port says "connection refused" and exits 1', async () => {
    const port = await freePort();
    const { code, stderr } = await simulateTo(`http://127.0.0.1:${port}/locations`, '1m');
    expect(code).toBe(1);
    expect(stderr).toContain(
      `nothing was delivered to http://127.0.0.1:${port}/locations: no response: connection refused`,
    );
  });

  it('`waypost simulate` to port 9 (a port fetch never connects to) says so and exits 1', async () => {
    const { code, stderr } = await simulateTo('http://127.0.0.1:9/locations', '20s');
    expect(code).toBe(1);
    expect(stderr).toMatch(/nothing was delivered to .*: no response: this port is one fetch never connects to/);
  });
});
