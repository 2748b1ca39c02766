import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { SDK_VERSION } from '@waypost/sdk';
import { ManualClock } from '@waypost/sdk/testing';
import { engine, openedEngine } from './support/engine.js';

const DAY = 86_400_000;

/** Parses a recorded multipart request with the platform's own form-data parser. */
async function formOf(request: { headers: Record<string, unknown> }, raw: Uint8Array): Promise<Map<string, unknown>> {
  const form = await new Response(new Uint8Array(raw), {
    headers: { 'content-type': String(request.headers['content-type']) },
  }).formData();
  const fields = new Map<string, unknown>();
  form.forEach((value, key) => fields.set(key, value));
  return fields;
}

describe('logger.uploadLog(url)', () => {
  it('POSTs the log gzipped as multipart form data, with device fields and http.headers', async () => {
    const { bg, server: logServer } = await engine(
      { http: { autoSync: false, headers: { 'X-Fleet': 'north' } } },
      { device: { uuid: 'device-7', model: 'Pi 5', manufacturer: 'RPi', platform: 'linux', version: '6.1' } },
    );
    await bg.store.insertLocation({ latitude: 45, longitude: -73 });
    // The same origin as http.url: the integrator's headers go with it.
    expect(await bg.logger.uploadLog(new URL('/api/logs', logServer.url).href)).toBe(true);

    const request = logServer.requests[0]!;
    expect(request.url).toBe('/api/logs');
    expect(request.method).toBe('POST');
    expect(request.headers['x-fleet']).toBe('north');
    const form = await formOf(request, request.raw);
    expect(Object.fromEntries([...form].filter(([, v]) => typeof v === 'string'))).toEqual({
      device_id: 'device-7',
      model: 'Pi 5',
      manufacturer: 'RPi',
      platform: 'linux',
      version: '6.1',
      sdk_version: SDK_VERSION,
    });
    const file = form.get('log') as File;
    expect(file.name).toBe('waypost-log.txt.gz');
    const text = gunzipSync(Buffer.from(await file.arrayBuffer())).toString('utf8');
    expect(text).toContain('INSERT');
    expect(logServer.requests).toHaveLength(1);
  });

  it.each([
    [{ params: { device_id: 'truck-17' } }, 'truck-17'],
    [{ params: { device: { uuid: 'anchor-device' } } }, 'anchor-device'],
    [{ rootProperty: '.', headers: { 'X-Device-Id': 'pi-7' } }, 'pi-7'],
    [{}, 'device-7'],
  ])('device_id is the name the uploads give the server (%j), else the device uuid', async (http, expected) => {
    const { bg, server: logServer } = await engine(
      { http: { autoSync: false, ...http } },
      { device: { uuid: 'device-7', model: 'Pi 5', manufacturer: 'RPi', platform: 'linux', version: '6.1' } },
    );
    expect(await bg.logger.uploadLog(new URL('/api/logs', logServer.url).href)).toBe(true);
    const request = logServer.requests[0]!;
    expect((await formOf(request, request.raw)).get('device_id')).toBe(expected);
  });

  it('a failed log upload rejects with what happened and keeps the log', async () => {
    const { bg, server: logServer } = await openedEngine({ replies: [{ status: 500 }] });
    await bg.ready({});
    await expect(bg.logger.uploadLog(logServer.url)).rejects.toMatchObject({
      code: 'NETWORK',
      message: expect.stringContaining('500'),
    });
    await expect(bg.logger.uploadLog('ftp://example.invalid/')).rejects.toMatchObject({ code: 'INVALID_CONFIG' });
    expect(await bg.logger.getLog()).toContain('ready');
    expect(logServer.requests.map((r) => r.answered)).toEqual([500]);
  });

  it('entries older than logMaxDays are pruned (heartbeat), destroyLog empties the log', async () => {
    const clock = new ManualClock(Date.UTC(2026, 10, 1));
    const { bg } = await openedEngine({ clock });
    await bg.ready({ logger: { logMaxDays: 2 }, app: { heartbeatInterval: 3600 } });
    await bg.start();
    expect(await bg.logger.getLog()).toContain('start (location)');
    await clock.advance(2 * DAY - 3_600_000);
    expect(await bg.logger.getLog()).toContain('start (location)');
    await clock.advance(2 * 3_600_000);
    expect(await bg.logger.getLog()).not.toContain('start (location)');
    await bg.logger.destroyLog();
    expect((await bg.logger.getLog()).trim()).toBe('');
  });
});
