// What the SDK says about itself in its uploads' health report (issue 39), read off the requests
// a server receives: the class of the last failure (a Retry-After is a wait, not a server error),
// the holds that really held its automatic uploads (never Wi-Fi only on Ethernet), and a hold that
// ended said once, on the delivery that ended it, never again.
import { describe, expect, it } from 'vitest';
import { parseHealthHeader, type HealthReport } from '@waypost/sdk/internal';
import { at, ManualNetwork } from '@waypost/sdk/testing';
import { engine } from './support/engine.js';

/** A server that reads health reports, as Waypost's says on every upload answer. */
const READS = { status: 200, json: {}, headers: { 'waypost-health-accepted': '1' } };

/** The report each request carried (null: none), in order. */
const reportsOf = (requests: { headers: Record<string, string> }[]): (HealthReport | null)[] =>
  requests.map((request) => {
    const header = request.headers['waypost-health'];
    if (header === undefined) return null;
    const parsed = parseHealthHeader(header);
    return parsed.ok ? parsed.report : null;
  });

describe('the health report of the next upload after a refused one', () => {
  it.each<[string, { status: number; headers?: Record<string, string> }, HealthReport['failure']]>([
    [
      '503 with Retry-After: told to wait',
      { status: 503, headers: { 'retry-after': '1' } },
      { class: 'throttled', ago: 2, status: 503 },
    ],
    [
      '429 with Retry-After: told to wait',
      { status: 429, headers: { 'retry-after': '1' } },
      { class: 'throttled', ago: 2, status: 429 },
    ],
    ['503 without Retry-After: a server error', { status: 503 }, { class: 'server', ago: 2, status: 503 }],
    ['500: a server error', { status: 500 }, { class: 'server', ago: 2, status: 500 }],
    ['401: credentials', { status: 401 }, { class: 'auth', ago: 2, status: 401 }],
    ['413: the request as a whole', { status: 413 }, { class: 'client', ago: 2, status: 413 }],
    ['422: the records refused', { status: 422 }, { class: 'refused', ago: 2, status: 422 }],
  ])('%s', async (_name, refusal, failure) => {
    const { bg, server, clock } = await engine({ http: { autoSync: false } });
    server.setDefault(READS);
    await bg.store.insertLocation(at(0));
    await bg.sync(); // the server said it reads reports
    server.script({ ...refusal, json: {} });
    await bg.store.insertLocation(at(1));
    await bg.sync().catch(() => undefined);
    await clock.advance(2000);
    await bg.sync().catch(() => undefined);
    const reports = reportsOf(server.requests);
    expect(reports[0]).toBeNull();
    expect(reports.at(-1)?.failure).toEqual(failure);
  });
});

describe('holds in the report', () => {
  it('Wi-Fi only holds nothing on Ethernet: automatic uploads go, and no hold is reported', async () => {
    const network = new ManualNetwork('ethernet');
    const { bg, server } = await engine({ http: { disableAutoSyncOnCellular: true } }, { network });
    server.setDefault(READS);
    await bg.store.insertLocation(at(0));
    await bg.idle();
    await bg.store.insertLocation(at(1));
    await bg.idle();
    expect(server.requests).toHaveLength(2);
    const report = reportsOf(server.requests)[1]!;
    expect(report).toMatchObject({ network: 'ethernet', wifiOnly: true });
    expect(report.hold).toBeUndefined();
    expect(report.was).toBeUndefined();
  });

  it('Wi-Fi only on cellular holds automatic uploads, and the report says so on a manual sync', async () => {
    const network = new ManualNetwork('wifi');
    const { bg, server } = await engine({ http: { disableAutoSyncOnCellular: true } }, { network });
    server.setDefault(READS);
    await bg.store.insertLocation(at(0));
    await bg.idle();
    network.set('cellular');
    await bg.store.insertLocation(at(1));
    await bg.idle();
    expect(server.requests).toHaveLength(1);
    await bg.sync();
    expect(reportsOf(server.requests)[1]).toMatchObject({ network: 'cellular', hold: { kind: 'wifi' } });
  });

  it('a hold that ended is said by the delivery that ended it, and by no later one', async () => {
    const network = new ManualNetwork('wifi');
    const { bg, server, clock } = await engine({}, { network });
    server.setDefault(READS);
    await bg.store.insertLocation(at(0));
    await bg.idle();
    network.set('none');
    await bg.store.insertLocation(at(1));
    await bg.idle();
    await clock.advance(60_000);
    network.set('wifi');
    await bg.idle();
    await bg.store.insertLocation(at(2));
    await bg.idle();
    const reports = reportsOf(server.requests);
    expect(reports).toHaveLength(3);
    expect(reports[1]?.was).toMatchObject({ kind: 'offline' });
    expect(reports[2]?.was).toBeUndefined();
    expect(reports[2]?.failure).toBeUndefined();
  });
});
