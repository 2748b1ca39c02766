import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawnAgent } from './support/agent-process.js';
import { writeGpxWalk } from './support/gpx-walk.js';
import { within } from './support/bounded.js';
import { startRefusingServer } from './support/refusing-server.js';
import { startSilentServer } from './support/silent-server.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'waypost-agent-stops-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const gpx = (points: number): string => writeGpxWalk(dir, points);

/** A config file with the longest waits the SDK has: the heartbeat and the periodic retry. */
function longWaits(): string {
  const path = join(dir, 'agent.json');
  writeFileSync(path, JSON.stringify({ app: { heartbeatInterval: 3600 }, http: { retryInterval: 3600 } }));
  return path;
}

const drainAgainst = (url: string, ...more: string[]) =>
  spawnAgent([
    ...['--source', `gpx:${gpx(3)}`, '--url', url, '--database', join(dir, 'agent.db')],
    ...['--replay-speed', '0', '--exit-when-done', '--config', longWaits(), ...more],
  ]);

/** SIGTERM once the agent has waited on its first failed upload; it must exit at once, with 0. */
async function expectPromptExit(agent: ReturnType<typeof spawnAgent>, failure: RegExp): Promise<void> {
  await agent.waitFor(failure);
  agent.child.kill('SIGTERM');
  // The agent's own close has nothing to wait for here; node's start-up aside, it is immediate.
  expect(await within(agent.exited, 5_000, 'the agent exiting after SIGTERM'), agent.stderr()).toEqual([0, null]);
  expect(agent.stderr()).toMatch(/SIGTERM: stopping[\s\S]*closed\n$/);
}

describe('waypost agent --exit-when-done: SIGTERM ends it at once, whatever it waits for', () => {
  it.each([
    ['a 503 with Retry-After: 120', '120', []],
    ['a 503 with Retry-After: 3600 and --give-up-after 1h', '3600', ['--give-up-after', '1h']],
  ])('%s', async (_name, retryAfter, more) => {
    const refusing = await startRefusingServer(503, '{"code":"UNAVAILABLE","error":"down"}', {
      'retry-after': retryAfter,
    });
    await expectPromptExit(drainAgainst(refusing.url, ...more), /upload failed \(HTTP 503/);
  });

  it("the drain's backoff (a refusal without Retry-After) after many failures", async () => {
    const refusing = await startRefusingServer(500, '{"code":"BROKEN","error":"broken"}');
    await expectPromptExit(drainAgainst(refusing.url, '--give-up-after', '1h'), /upload failed \(HTTP 500/);
  });

  it('an upload that is never answered, with --give-up-after 1h', async () => {
    const agent = drainAgainst(await startSilentServer(), '--give-up-after', '1h', '--shutdown-timeout', '1s');
    // Each fix is uploaded as it is recorded: once the file is read, a request is in flight.
    await agent.waitFor(/ exhausted\n/);
    agent.child.kill('SIGTERM');
    expect(await within(agent.exited, 8_000, 'the agent exiting after SIGTERM'), agent.stderr()).toEqual([0, null]);
    expect(agent.stderr()).toMatch(/record\(s\) of the upload in flight released/);
  });
});
