// Delivery receipts (issue 46) end to end: a real server offers receipts on its upload answers, the
// real Node SDK asks for them from its next upload, verifies each 2xx's receipt with the key it
// pinned, and moves the receipted records into its archive instead of deleting them.
import { verify } from 'node:crypto';
import { ManualClock } from '@waypost/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSdk } from '../../node/test/support/harness.js';
import { backends } from './helpers/backends.js';
import { startTestServer, type TestServer } from './helpers/client.js';

const START = Date.UTC(2026, 10, 27, 9);
const clock = new ManualClock(START);

/** A receipt's payload, read as a device's operator would (base64url JSON before the dot). */
const payloadOf = (receipt: string) => JSON.parse(Buffer.from(receipt.split('.')[0]!, 'base64url').toString('utf8'));

describe.each(backends)('delivery receipts with the real SDK, on $name', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend, { now: () => clock.now() });
  });
  afterAll(() => server.stop());

  async function device(id: string) {
    const bg = await openSdk({ clock });
    await bg.ready({
      http: { url: `${server.url}/locations`, params: { device_id: id }, batchSync: true, autoSync: false },
    });
    return bg;
  }

  it('offers receipts on every upload answer; a request that does not ask gets none', async () => {
    const answer = await fetch(`${server.url}/locations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        device_id: `${backend.name}-plain`,
        location: {
          uuid: 'p-1',
          sequence: 1,
          coords: { latitude: 1, longitude: 2 },
          timestamp: new Date(START).toISOString(),
        },
      }),
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('waypost-receipts-offered')).toBe('1');
    expect(answer.headers.get('waypost-receipt')).toBeNull();
  });

  it('the SDK archives receipted records instead of deleting them, and says per day up to where the server holds them', async () => {
    const bg = await device(`${backend.name}-kept`);
    await bg.store.insertLocation({ latitude: 52.5, longitude: 13.4 });
    await bg.sync(); // the first answer offers receipts: this upload asked for none
    expect(await bg.store.getReceipts()).toEqual([]);
    for (let i = 0; i < 3; i++) await bg.store.insertLocation({ latitude: 52.5 + i / 1000, longitude: 13.4 });
    await bg.sync();
    expect(await bg.getCount()).toBe(0); // delivered: out of the queue, as the spec says
    const days = await bg.store.getReceipts();
    expect(days).toEqual([
      {
        day: '2026-11-27',
        url: `${server.url}/locations`,
        epoch: expect.any(String),
        ranges: [[2, 4]],
        records: 3,
        upTo: 4,
        receipts: 1,
      },
    ]);
    const log = await bg.logger.getLog();
    expect(log).toContain('ARCHIVE 3 records under receipt');
    expect(log).not.toContain('RECEIPT_MISSING'); // the first upload did not ask: nothing was missing
  });

  it('a receipt verifies with the published key and fails with a changed one', async () => {
    const id = `${backend.name}-verify`;
    const body = (n: number) => ({
      device_id: id,
      location: [
        {
          uuid: `v-${n}`,
          sequence: n,
          sequence_epoch: 'e1',
          coords: { latitude: 1, longitude: 2 },
          timestamp: new Date(START).toISOString(),
        },
      ],
    });
    const answer = await fetch(`${server.url}/locations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'waypost-receipts': '1' },
      body: JSON.stringify(body(7)),
    });
    expect(answer.status).toBe(200);
    const receipt = answer.headers.get('waypost-receipt')!;
    const payload = payloadOf(receipt);
    expect(payload).toMatchObject({ v: 1, dev: id, ep: 'e1', r: [[7, 7]] });
    const keys = (await (await fetch(`${server.url}/.well-known/waypost-receipt-keys`)).json()) as {
      keys: { kid: string; x: string }[];
    };
    expect(keys.keys).toHaveLength(1);
    const [signed, signature] = receipt.split('.') as [string, string];
    const publicKey = (jwk: object) => ({
      key: { ...jwk, kty: 'OKP', crv: 'Ed25519' } as never,
      format: 'jwk' as const,
    });
    expect(verify(null, Buffer.from(signed), publicKey(keys.keys[0]!), Buffer.from(signature, 'base64url'))).toBe(true);
    // Another Ed25519 key (one x byte changed) does not verify it.
    const x = Buffer.from(keys.keys[0]!.x, 'base64url');
    x[0] = x[0]! ^ 1;
    let changed: boolean;
    try {
      changed = verify(
        null,
        Buffer.from(signed),
        publicKey({ x: x.toString('base64url') }),
        Buffer.from(signature, 'base64url'),
      );
    } catch {
      changed = false; // not a point on the curve: no key at all
    }
    expect(changed).toBe(false);
  });
});
