import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import type { DeviceReport } from '../src/simulate/summary.js';
import { runCli } from './support/run-cli.js';
import { startSilentServer } from './support/silent-server.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'waypost-simulate-limit-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

type Summary = { lost: number; devices: DeviceReport[] };

/** A service that stores the first `accepted` uploads, then answers 429 with Retry-After: an hour. */
async function startClosingService(accepted: number): Promise<string> {
  let requests = 0;
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      requests++;
      if (requests <= accepted) response.writeHead(200, { 'content-type': 'application/json' }).end('{"stored":1}');
      else
        response
          .writeHead(429, { 'content-type': 'application/json', 'retry-after': '3600' })
          .end('{"code":"RATE_LIMITED","error":"come back in an hour"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  server.on('connection', (socket) => onTestFinished(() => void socket.destroy()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/locations`;
}

/**
 * A service that answers every `every`-th upload of a device with 429 and Retry-After: 1, and notes
 * the requests of that device that come before the second is over.
 */
async function startThrottlingService(every: number) {
  const counts = new Map<string, number>();
  const heldUntil = new Map<string, number>();
  const early: string[] = [];
  let throttled = 0;
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const device = String((JSON.parse(body) as { device_id?: unknown }).device_id);
      const now = Date.now();
      if (now < (heldUntil.get(device) ?? 0)) early.push(`${device} ${heldUntil.get(device)! - now} ms early`);
      const count = (counts.get(device) ?? 0) + 1;
      counts.set(device, count);
      if (count % every === 0) {
        throttled++;
        heldUntil.set(device, now + 1000);
        response
          .writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' })
          .end('{"code":"RATE_LIMITED","error":"slow down"}');
      } else {
        response.writeHead(200, { 'content-type': 'application/json' }).end('{"stored":1}');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  server.on('connection', (socket) => onTestFinished(() => void socket.destroy()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/locations`,
    throttled: () => throttled,
    early: () => early,
  };
}

describe('waypost simulate --speedup 0 and a rate-limited service', () => {
  it("the fleet waits out the service's Retry-After in real time: no request comes early, all delivered", async () => {
    const service = await startThrottlingService(6);
    const { code, stdout, stderr } = await runCli([
      ...['simulate', '--url', service.url, '--devices', '2', '--duration', '2m', '--speedup', '0'],
      ...['--drain-timeout', '10s', '--json'],
    ]);
    expect(code, stderr).toBe(0);
    for (const device of (JSON.parse(stdout) as Summary).devices) {
      expect(device).toMatchObject({ delivered: device.recorded, queued: 0, lost: 0 });
    }
    expect(service.throttled()).toBeGreaterThanOrEqual(4);
    // Unpaced, the SDKs' simulated clock ends each Retry-After at the next step, a few ms later.
    expect(service.early()).toEqual([]);
  });

  it('records left undelivered exit 1, saying why and what to change', async () => {
    const url = await startClosingService(5);
    const { code, stdout, stderr } = await runCli([
      ...['simulate', '--url', url, '--devices', '1', '--duration', '1m', '--speedup', '0'],
      ...['--drain-timeout', '1s', '--json'],
    ]);
    expect(code).toBe(1);
    const [device] = (JSON.parse(stdout) as Summary).devices;
    expect(device!.delivered).toBe(5);
    expect(device!.queued).toBe(device!.recorded - 5);
    expect(stderr).toContain(`${device!.queued} records still queued after 1s of draining: not delivered\n`);
    expect(stderr).toContain('last failed upload: HTTP 429 RATE_LIMITED: come back in an hour\n');
    expect(stderr).toContain(
      'the service asked to wait 1h00m (Retry-After), longer than --drain-timeout: raise --drain-timeout to wait for it\n',
    );
  });

  it('a service that accepts and never answers: the timeout is named, with the flag that bounded it', async () => {
    const { code, stderr } = await runCli([
      ...['simulate', '--url', await startSilentServer(), '--devices', '1', '--duration', '30s', '--speedup', '0'],
      ...['--drain-timeout', '1s'],
    ]);
    expect(code).toBe(1);
    expect(stderr).toMatch(
      /records still queued after 1s of draining: not delivered\nlast failure: TIMEOUT: 127\.0\.0\.1:\d+ accepted the connection but sent no response within 1s \(--drain-timeout\) \(the SDK ends such a request after http\.timeout, 60 s\)\n/,
    );
  });
});
