import { describe, expect, it } from 'vitest';
import type { RemoteCommandEvent } from '@waypost/sdk';
import { engine } from './support/engine.js';

const here = { latitude: 45.5, longitude: -73.6, accuracy: 5 };
const fence = { identifier: 'depot', latitude: 45.5, longitude: -73.6, radius: 200 };

/** An SDK whose first upload is answered with `reply`; resolves once its commands have run. */
async function deliver(reply: unknown, options: { status?: number; http?: Record<string, unknown> } = {}) {
  const harness = await engine(
    { http: { autoSync: false, ...options.http } },
    { replies: [{ status: options.status ?? 200, json: reply }] },
  );
  const commands: RemoteCommandEvent[] = [];
  harness.bg.onRemoteCommand((event) => commands.push(event));
  await harness.bg.start();
  await harness.bg.recordLocation(here);
  await harness.bg.sync().catch(() => undefined);
  return { ...harness, commands };
}

describe('remote control (spec 4.2): each command does what its operation does', () => {
  it('"stop" stops tracking after the upload that carried it is settled', async () => {
    const { bg, commands } = await deliver({ background_geolocation: ['stop'] });
    expect(commands).toEqual([{ command: 'stop', args: [], ok: true, error: null }]);
    expect((await bg.getState()).enabled).toBe(false);
    expect(await bg.getCount()).toBe(0);
  });

  it('"start" starts tracking', async () => {
    const harness = await engine(
      { http: { autoSync: false } },
      { replies: [{ status: 200, json: { background_geolocation: ['start'] } }] },
    );
    await harness.bg.store.insertLocation(here);
    expect((await harness.bg.getState()).enabled).toBe(false);
    await harness.bg.sync();
    expect(await harness.bg.getState()).toMatchObject({ enabled: true, trackingMode: 1 });
  });

  it('"startGeofences" switches to geofences-only tracking', async () => {
    const { bg } = await deliver({ background_geolocation: ['startGeofences'] });
    expect(await bg.getState()).toMatchObject({ enabled: true, trackingMode: 0 });
  });

  it('"changePace" with true makes the device moving and records a motionchange', async () => {
    const { bg, server } = await deliver({ background_geolocation: ['changePace', true] });
    expect((await bg.getState()).isMoving).toBe(true);
    // The sync that carried the command drains what the command queued.
    expect(server.requests).toHaveLength(2);
    expect((server.requests[1]!.body as { location: unknown }).location).toEqual(
      expect.objectContaining({
        event: 'motionchange',
        is_moving: true,
        coords: expect.objectContaining({ latitude: 45.5 }),
      }),
    );
  });

  it('"setConfig" applies grouped and old flat keys like setConfig()', async () => {
    const { bg } = await deliver({
      background_geolocation: [
        ['setConfig', { http: { batchSync: true } }],
        ['setConfig', { httpTimeout: 5000, maxBatchSize: 50 }],
      ],
    });
    expect((await bg.getState()).http).toMatchObject({ batchSync: true, timeout: 5000, maxBatchSize: 50 });
  });

  it('"addGeofence", "addGeofences", "removeGeofence" and "removeGeofences" manage geofences', async () => {
    const { bg } = await deliver({
      background_geolocation: [
        ['addGeofence', fence],
        [
          'addGeofences',
          [
            { ...fence, identifier: 'a' },
            { ...fence, identifier: 'b' },
            { ...fence, identifier: 'c' },
          ],
        ],
        ['removeGeofence', 'depot'],
        ['removeGeofences', ['a']],
      ],
    });
    expect((await bg.getGeofences()).map((g) => g.identifier)).toEqual(['b', 'c']);
  });

  it('"removeGeofences" without a list removes every geofence', async () => {
    const harness = await engine(
      { http: { autoSync: false } },
      { replies: [{ status: 200, json: { background_geolocation: ['removeGeofences'] } }] },
    );
    await harness.bg.addGeofences([fence, { ...fence, identifier: 'other' }]);
    await harness.bg.store.insertLocation(here);
    await harness.bg.sync();
    expect(await harness.bg.getGeofences()).toEqual([]);
  });

  it('"uploadLog" posts the log to the given URL; "destroyLog" empties it', async () => {
    const logUrl = 'http://logs.waypost.test/upload';
    const { bg, commands, server } = await deliver({ background_geolocation: [['uploadLog', logUrl], ['destroyLog']] });
    expect(commands.map((c) => [c.command, c.ok])).toEqual([
      ['uploadLog', true],
      ['destroyLog', true],
    ]);
    // The log upload runs on its own, after the location upload that carried the command.
    await bg.idle();
    const logUploads = server.requests.filter((r) => r.href === logUrl);
    expect(logUploads).toHaveLength(1);
    expect(logUploads[0]!.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(server.requests.map((r) => r.href)).toEqual([server.url, logUrl]);
    expect(await bg.logger.getLog()).not.toContain('INSERT');
  });
});

describe('remote control: container forms (DESIGN 4)', () => {
  it('a bare string', async () => {
    const { bg } = await deliver({ background_geolocation: 'stop' });
    expect((await bg.getState()).enabled).toBe(false);
  });

  it('one tuple with an argument', async () => {
    const { bg } = await deliver({ background_geolocation: ['setConfig', { http: { autoSyncThreshold: 7 } }] });
    expect((await bg.getState()).http.autoSyncThreshold).toBe(7);
  });

  it('a list of tuples runs in order', async () => {
    const { commands, bg } = await deliver({
      background_geolocation: [['setConfig', { http: { autoSyncThreshold: 3 } }], ['stop'], ['start']],
    });
    expect(commands.map((c) => c.command)).toEqual(['setConfig', 'stop', 'start']);
    expect(await bg.getState()).toMatchObject({ enabled: true, http: { autoSyncThreshold: 3 } });
  });

  it('commands in a non-2xx reply run too, and the record stays queued for retry', async () => {
    const { bg, commands } = await deliver(
      { background_geolocation: [['setConfig', { http: { timeout: 1234 } }]] },
      { status: 503 },
    );
    expect(commands).toEqual([expect.objectContaining({ command: 'setConfig', ok: true })]);
    expect((await bg.getState()).http.timeout).toBe(1234);
    expect(await bg.getCount()).toBe(1);
  });
});

describe('remote control: bad commands are reported, never crash, never lose records', () => {
  it('an unknown command is reported and the others still run', async () => {
    const { bg, commands } = await deliver({ background_geolocation: [['selfDestruct'], ['stop']] });
    expect(commands[0]).toMatchObject({
      command: 'selfDestruct',
      ok: false,
      error: expect.stringContaining('unknown command'),
    });
    expect(commands[1]).toMatchObject({ command: 'stop', ok: true });
    expect((await bg.getState()).enabled).toBe(false);
    expect(await bg.logger.getLog()).toContain('command selfDestruct rejected');
  });

  it('setConfig with an invalid value is rejected with the key named, configuration unchanged', async () => {
    const { bg, commands } = await deliver({
      background_geolocation: [['setConfig', { http: { url: null } }], ['stop']],
    });
    // url null is allowed by type (it unsets uploads), so also try a value that is not.
    expect(commands[0]!.ok).toBe(true);
    const again = await deliver({ background_geolocation: [['setConfig', { http: { url: 'ftp://x' } }], ['stop']] });
    expect(again.commands[0]).toMatchObject({ ok: false, error: expect.stringContaining('http.url') });
    expect((await again.bg.getState()).http.url).toBe(again.server.url);
    expect(again.commands[1]).toMatchObject({ command: 'stop', ok: true });
    expect((await bg.getState()).http.url).toBeUndefined();
  });

  it('changePace with "yes" is rejected', async () => {
    const { bg, commands } = await deliver({ background_geolocation: [['changePace', 'yes']] });
    expect(commands[0]).toMatchObject({ command: 'changePace', ok: false, error: 'expects true or false' });
    expect((await bg.getState()).isMoving).toBe(false);
  });

  it('a command not in http.remoteCommands is refused', async () => {
    const { bg, commands } = await deliver(
      { background_geolocation: ['stop'] },
      { http: { remoteCommands: ['setConfig'] } },
    );
    expect(commands[0]).toMatchObject({ ok: false, error: 'not allowed by http.remoteCommands' });
    expect((await bg.getState()).enabled).toBe(true);
  });

  it('a non-JSON body mentioning the key, and a malformed value, are reported; the upload still counts', async () => {
    const harness = await engine(
      { http: { autoSync: false } },
      { replies: [{ status: 200, text: 'background_geolocation: stop' }] },
    );
    const commands: RemoteCommandEvent[] = [];
    harness.bg.onRemoteCommand((event) => commands.push(event));
    await harness.bg.store.insertLocation(here);
    expect(await harness.bg.sync()).toHaveLength(1);
    expect(commands).toEqual([expect.objectContaining({ ok: false, error: 'response body is not JSON' })]);

    const { commands: more } = await deliver({ background_geolocation: 42 });
    expect(more).toEqual([expect.objectContaining({ ok: false, error: expect.stringContaining('not a command') })]);
  });

  it('a huge body is not parsed for commands, and nothing is lost', async () => {
    const padding = 'x'.repeat(400_000);
    const { bg, commands } = await deliver({ padding, background_geolocation: ['stop'] });
    expect(commands[0]).toMatchObject({ ok: false, error: expect.stringContaining('too large') });
    expect((await bg.getState()).enabled).toBe(true);
    expect(await bg.getCount()).toBe(0);
  });

  it('a command that throws (an invalid geofence) is reported; the queue is intact', async () => {
    const { bg, commands } = await deliver({
      background_geolocation: [['addGeofence', { identifier: 'x', latitude: 99 }], ['stop']],
    });
    expect(commands[0]).toMatchObject({
      command: 'addGeofence',
      ok: false,
      error: expect.stringContaining('latitude'),
    });
    expect(commands[1]).toMatchObject({ command: 'stop', ok: true });
    expect(await bg.getGeofences()).toEqual([]);
  });
});
