import { describe, expect, it } from 'vitest';
import { ManualClock, at, uuidsOf, type RecordedRequest } from '@waypost/sdk/testing';
import { engine } from './support/engine.js';

// Issue 19: one record a server will not take never blocks a device. A batch refused with a 4xx
// that is about its records is split until the record is isolated; everything else is delivered,
// in order; the record stays queued and is retried alone, with a backoff.
const T0 = Date.UTC(2026, 5, 1, 12);

/** A foreign server that answers 422 to any request carrying `bad`, 200 otherwise. */
const refusing = (bad: () => string | undefined) => (request: RecordedRequest) =>
  uuidsOf(request.body).includes(bad() ?? '')
    ? { status: 422, json: { error: 'invalid record' } }
    : { status: 200, json: {} };

/** The records a batch request carried (under the default root, "location"). */
const recordsOf = (body: unknown) => (body as { location: { extras?: Record<string, unknown> }[] }).location;

describe('a record the server refuses on its own', () => {
  it('is isolated by splitting the batch; the other records are delivered in order', async () => {
    const { bg, server, http } = await engine({ http: { autoSync: false, batchSync: true } });
    const uuids: string[] = [];
    for (let i = 0; i < 10; i++) uuids.push((await bg.store.insertLocation(at(i))).uuid);
    const bad = uuids[3];
    server.setDefault(refusing(() => bad));
    await bg.sync();
    const delivered = server.requests.filter((r) => r.answered === 200).flatMap((r) => uuidsOf(r.body));
    expect(delivered).toEqual(uuids.filter((u) => u !== bad));
    expect(await bg.getCount()).toBe(1);
    // Every attempt reported: 10 refused, halves 1-5 refused, 1-3 ok, 4-5 refused, 4 refused alone, 5 ok, 6-10 ok.
    expect(http.map((e) => e.status)).toEqual([422, 422, 200, 422, 422, 200, 200]);
    expect(http.at(-3)).toMatchObject({ success: false, status: 422, uuids: [bad] });
    const log = await bg.logger.getLog();
    expect(log).toContain(`RECORD_REFUSED: 422 for record ${bad} alone`);
  });

  it('is retried alone, after its backoff, never in a batch with the later records', async () => {
    // The server refuses the record marked so (its uuid is only known once it is recorded, which
    // may be after its automatic upload has gone out).
    let refusing = true;
    const marked = (request: RecordedRequest) => recordsOf(request.body).some((r) => r.extras?.['refuse'] === true);
    const clock = new ManualClock(T0);
    const { bg, server, http } = await engine({ http: { autoSync: true, batchSync: true } }, { clock });
    server.setDefault((request) =>
      refusing && marked(request) ? { status: 422, json: { error: 'invalid record' } } : { status: 200, json: {} },
    );
    await bg.start();
    const refused = (await bg.recordLocation({ ...at(0), extras: { refuse: true } })).uuid;
    await bg.idle(); // the automatic upload: refused alone, held with a 30 s backoff
    expect(http.map((e) => [e.status, e.uuids])).toEqual([[422, [refused]]]);
    expect(await bg.getCount()).toBe(1);
    const sentBefore = server.requests.length;
    // Automatic uploads before the backoff leave it alone and deliver what comes after it.
    const next = await bg.recordLocation(at(1));
    await bg.idle();
    expect(server.requests.slice(sentBefore).map((r) => uuidsOf(r.body))).toEqual([[next.uuid]]);
    // After the backoff, the next automatic upload sends it alone; the server now takes it.
    refusing = false;
    await clock.advance(31_000);
    const last = await bg.recordLocation(at(2));
    await bg.idle();
    expect(server.requests.slice(sentBefore + 1).map((r) => uuidsOf(r.body))).toEqual([[refused], [last.uuid]]);
    expect(await bg.getCount()).toBe(0);
  });

  it('a server refusing every record is asked a bounded number of times per flush, and nothing is lost', async () => {
    const { bg, server, http } = await engine({ http: { autoSync: false, batchSync: true } });
    server.setDefault({ status: 400, json: { error: 'no' } });
    for (let i = 0; i < 100; i++) await bg.store.insertLocation(at(i));
    await bg.sync();
    expect(server.requests.length).toBeLessThanOrEqual(25);
    expect(http.every((e) => !e.success)).toBe(true);
    expect(await bg.getCount()).toBe(100);
  });

  it('a 500 is not a refusal: the batch is not split', async () => {
    const { bg, server } = await engine({ http: { autoSync: false, batchSync: true } });
    server.setDefault({ status: 500, json: {} });
    for (let i = 0; i < 8; i++) await bg.store.insertLocation(at(i));
    await bg.sync().catch(() => undefined);
    expect(server.requests).toHaveLength(1);
    expect(await bg.getCount()).toBe(8);
  });
});
