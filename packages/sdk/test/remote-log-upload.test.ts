import { describe, expect, it } from 'vitest';
import type { RemoteCommandEvent } from '@waypost/sdk';
import { LOG_UPLOAD_COALESCE_MS } from '@waypost/sdk/internal';
import { at, type RecordedRequest } from '@waypost/sdk/testing';
import { engine } from './support/engine.js';

// Every URL reaches the kit's one scripted server: hosts are told apart by the request's URL.
const to = (href: string) => (request: RecordedRequest) => request.href === href;

const uploadLogCommands = (url: string, count: number) => ({
  background_geolocation: Array.from({ length: count }, () => ['uploadLog', url]),
});

describe('remote uploadLog', () => {
  it('200 commands to a host that never answers: one log upload, and location uploads go on meanwhile', async () => {
    const silent = 'http://silent.waypost.test/logs';
    const { bg, server, clock } = await engine({ http: { autoSync: false, timeout: 30_000 } });
    server.setDefault((request) => (to(silent)(request) ? { hang: true } : { status: 200, json: {} }));
    server.script({ status: 200, json: uploadLogCommands(silent, 200) });
    const commands: RemoteCommandEvent[] = [];
    bg.onRemoteCommand((event) => commands.push(event));
    await bg.store.insertLocation(at(0));
    expect(await bg.sync()).toHaveLength(1);
    expect(commands).toHaveLength(200);
    expect(commands.every((c) => c.ok)).toBe(true);
    // The log upload hangs; more locations are uploaded regardless.
    await bg.store.insertLocation(at(1));
    expect(await bg.sync()).toHaveLength(1);
    expect(server.requests.filter(to(server.url))).toHaveLength(2);
    await server.holding(1); // the log upload, hanging on the silent host
    expect(server.requests.filter(to(silent))).toHaveLength(1);
    expect(await bg.logger.getLog()).toContain('coalesced');
    await clock.advance(30_000); // http.timeout: the silent host never answered
    await bg.idle();
    expect(server.requests.filter(to(silent))).toHaveLength(1);
    expect(await bg.logger.getLog()).toContain('remote log upload failed');
  });

  it('at most one upload per URL per minute; a different URL is its own', async () => {
    const logs = 'http://logs.waypost.test/upload';
    const other = 'http://other.waypost.test/upload';
    const { bg, server, clock } = await engine({ http: { autoSync: false } });
    const deliverWith = async (body: unknown) => {
      server.script({ status: 200, json: body });
      await bg.store.insertLocation(at(0));
      await bg.sync();
      await bg.idle();
    };
    await deliverWith(uploadLogCommands(logs, 3));
    expect(server.requests.filter(to(logs))).toHaveLength(1);
    await clock.advance(LOG_UPLOAD_COALESCE_MS - 1);
    await deliverWith({
      background_geolocation: [
        ['uploadLog', logs],
        ['uploadLog', other],
      ],
    });
    expect(server.requests.filter(to(logs))).toHaveLength(1);
    expect(server.requests.filter(to(other))).toHaveLength(1);
    await clock.advance(1);
    await deliverWith(uploadLogCommands(logs, 5));
    expect(server.requests.filter(to(logs))).toHaveLength(2);
    expect(server.requests.map((r) => r.href)).toEqual([server.url, logs, server.url, other, server.url, logs]);
  });

  it('http.headers and the Authorization header go only to the origin of http.url', async () => {
    const elsewhere = 'http://elsewhere.waypost.test/logs';
    const { bg, server } = await engine({
      http: { autoSync: false, headers: { 'X-Api-Key': 'secret-key' } },
      authorization: { accessToken: 'secret-token' },
    });
    const sameOrigin = new URL('/logs', server.url).href;
    server.script({
      status: 200,
      json: {
        background_geolocation: [
          ['uploadLog', elsewhere],
          ['uploadLog', sameOrigin],
        ],
      },
    });
    await bg.store.insertLocation(at(0));
    await bg.sync();
    await bg.idle();
    const foreign = server.requests.find(to(elsewhere))!;
    expect(foreign.headers['x-api-key']).toBeUndefined();
    expect(foreign.headers.authorization).toBeUndefined();
    expect(foreign.headers['content-type']).toMatch(/^multipart\/form-data/);
    const own = server.requests.find(to(sameOrigin))!;
    expect(own.headers['x-api-key']).toBe('secret-key');
    expect(own.headers.authorization).toBe('Bearer secret-token');
    // The application's own call follows the same rule.
    await bg.logger.uploadLog(elsewhere);
    expect(server.requests.filter(to(elsewhere))[1]!.headers.authorization).toBeUndefined();
    expect(await bg.logger.getLog()).not.toContain('secret');
  });
});
