import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { block } from '../../cli/test/readme/readme-blocks.js';
import { backends } from './helpers/backends.js';
import { record, startTestServer, type TestServer } from './helpers/client.js';
import { WebhookReceiver } from './helpers/webhook-receiver.js';

type Verify = (secret: string, headers: Record<string, unknown>, body: string) => boolean;

describe("the README's signature check, on real deliveries", () => {
  const dir = mkdtempSync(join(tmpdir(), 'waypost-readme-verify-'));
  const receiver = new WebhookReceiver();
  let server: TestServer;
  let verify: Verify;
  beforeAll(async () => {
    const file = join(dir, 'verify.mjs');
    writeFileSync(file, block('webhook-verify').code);
    verify = ((await import(pathToFileURL(file).href)) as { verifyWaypostWebhook: Verify }).verifyWaypostWebhook;
    await receiver.start();
    server = await startTestServer(backends[0]!, { webhooks: [receiver.url], sinkEvents: ['location'] });
  });
  afterAll(async () => {
    await server.stop();
    await receiver.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('accepts what the server signed and refuses anything changed', async () => {
    const secret = server.sinks[0]!.secret!;
    expect(secret).toMatch(/^whsec_/);
    await server.post('/locations', { location: [record('r1'), record('r2')], device_id: 'readme' });
    await receiver.waitFor(2);
    for (const { headers, body } of receiver.requests) {
      expect(verify(secret, headers, body)).toBe(true);
      expect(verify(secret, headers, body.replace('readme', 'README'))).toBe(false);
      expect(verify(secret, { ...headers, 'webhook-id': 'evt_other' }, body)).toBe(false);
      expect(verify(`whsec_${Buffer.alloc(24, 1).toString('base64')}`, headers, body)).toBe(false);
      expect(
        verify(secret, { ...headers, 'webhook-timestamp': String(Math.floor(Date.now() / 1000) - 3600) }, body),
      ).toBe(false);
    }
  });
});
