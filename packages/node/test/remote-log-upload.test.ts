import { describe, expect, it } from 'vitest';
import { ManualClock, type RemoteCommandEvent } from '@waypost/node';
import { at, startHarness } from './support/harness.js';
import { startScriptedServer } from './support/scripted-server.js';
import { LOG_UPLOAD_COALESCE_MS } from '@waypost/sdk/internal';

const uploadLogCommands = (url: string, count: number) => ({
  background_geolocation: Array.from({ length: count }, () => ['uploadLog', url]),
});

describe('remote uploadLog', () => {
  it('200 commands to a host that never answers: one log upload, and location uploads go on meanwhile', async () => {
    const silent = await startScriptedServer();
    silent.setDefault({ hang: true });
    const { bg, server } = await startHarness({ http: { autoSync: false, timeout: 30_000 } });
    server.script({ status: 200, json: uploadLogCommands(silent.url, 200) });
    const commands: RemoteCommandEvent[] = [];
    bg.onRemoteCommand((event) => commands.push(event));
    await bg.store.insertLocation(at(0));
    expect(await bg.sync()).toHaveLength(1);
    expect(commands).toHaveLength(200);
    expect(commands.every((c) => c.ok)).toBe(true);
    // The log upload hangs; more locations are uploaded regardless.
    await bg.store.insertLocation(at(1));
    expect(await bg.sync()).toHaveLength(1);
    expect(server.requests).toHaveLength(2);
    await silent.holding(1); // the log upload, hanging on the silent host
    expect(silent.requests).toHaveLength(1);
    expect(await bg.logger.getLog()).toContain('coalesced');
    await silent.close();
    await bg.idle();
    expect(await bg.logger.getLog()).toContain('remote log upload failed');
  });

  it('at most one upload per URL per minute; a different URL is its own', async () => {
    const clock = new ManualClock();
    const logs = await startScriptedServer();
    const other = await startScriptedServer();
    const { bg, server } = await startHarness({ http: { autoSync: false } }, { clock });
    const deliverWith = async (body: unknown) => {
      server.script({ status: 200, json: body });
      await bg.store.insertLocation(at(0));
      await bg.sync();
      await bg.idle();
    };
    await deliverWith(uploadLogCommands(logs.url, 3));
    expect(logs.requests).toHaveLength(1);
    await clock.advance(LOG_UPLOAD_COALESCE_MS - 1);
    await deliverWith({
      background_geolocation: [
        ['uploadLog', logs.url],
        ['uploadLog', other.url],
      ],
    });
    expect(logs.requests).toHaveLength(1);
    expect(other.requests).toHaveLength(1);
    await clock.advance(1);
    await deliverWith(uploadLogCommands(logs.url, 5));
    expect(logs.requests).toHaveLength(2);
    await logs.close();
    await other.close();
  });

  it('http.headers and the Authorization header go only to the origin of http.url', async () => {
    const elsewhere = await startScriptedServer();
    const { bg, server } = await startHarness({
      http: { autoSync: false, headers: { 'X-Api-Key': 'secret-key' } },
      authorization: { accessToken: 'secret-token' },
    });
    const sameOrigin = new URL('/logs', server.url).href;
    server.script({
      status: 200,
      json: {
        background_geolocation: [
          ['uploadLog', elsewhere.url],
          ['uploadLog', sameOrigin],
        ],
      },
    });
    await bg.store.insertLocation(at(0));
    await bg.sync();
    await bg.idle();
    const foreign = elsewhere.requests[0]!;
    expect(foreign.headers['x-api-key']).toBeUndefined();
    expect(foreign.headers.authorization).toBeUndefined();
    expect(foreign.headers['content-type']).toMatch(/^multipart\/form-data/);
    const own = server.requests.find((r) => r.url === '/logs')!;
    expect(own.headers['x-api-key']).toBe('secret-key');
    expect(own.headers.authorization).toBe('Bearer secret-token');
    // The application's own call follows the same rule.
    await bg.logger.uploadLog(elsewhere.url);
    expect(elsewhere.requests[1]!.headers.authorization).toBeUndefined();
    expect(await bg.logger.getLog()).not.toContain('secret');
    await elsewhere.close();
  });
});
