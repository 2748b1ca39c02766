// "A server and a device, by hand": the two terminals of the README, as child processes in a
// folder of their own. Only the port changes (8080 may be taken on the machine running the test).
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { freePort } from '../support/free-port.js';
import { block } from './readme-blocks.js';
import { ADMIN_TOKEN, runShell, userFolder } from './readme-world.js';

const TRACK_POINTS = (
  readFileSync(new URL('../../../../examples/track.gpx', import.meta.url), 'utf8').match(/<trkpt /g) ?? []
).length;

describe('README: a server and a device, by hand', () => {
  it('the agent replays the walk into the server, exits 0, and the server holds every point', async () => {
    const dir = userFolder();
    const port = String(await freePort());
    const server = runShell(block('quick-start-server').code.trim().replaceAll('8080', port), dir);
    const [, token] = await server.waitFor(/^admin token: (\S+)/m);
    await server.waitFor(/listening on/);
    const agent = runShell(block('quick-start-agent').code.trim().replaceAll('8080', port), dir);
    expect(await agent.exited, agent.output()).toBe(0);
    const response = await fetch(`http://127.0.0.1:${port}/api/devices`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const devices = (await response.json()) as { id: string; records: number }[];
    expect(devices.map((d) => d.records)).toEqual([TRACK_POINTS]);
    expect(token).not.toBe(ADMIN_TOKEN);
  });
});
