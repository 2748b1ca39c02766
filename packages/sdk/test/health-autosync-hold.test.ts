// An app that turns automatic uploads off (http.autoSync: false) holds them: when it turns them on
// again, the delivery that ends the hold says so (`was=autosync-off`), as it does for the other
// holds, so a server can explain the device's silence for certain (issue 39).
import { describe, expect, it } from 'vitest';
import { parseHealthHeader, type HealthReport } from '@waypost/sdk/internal';
import { at } from '@waypost/sdk/testing';
import { engine } from './support/engine.js';

/** A server that reads health reports, as Waypost's says on every upload answer. */
const READS = { status: 200, json: {}, headers: { 'waypost-health-accepted': '1' } };

const reportOf = (request: { headers: Record<string, string> }): HealthReport | null => {
  const header = request.headers['waypost-health'];
  const parsed = header === undefined ? null : parseHealthHeader(header);
  return parsed?.ok ? parsed.report : null;
};

describe('autoSync turned off and on again', () => {
  it('the delivery after it says the hold that ended, and how long it held', async () => {
    const { bg, server, clock } = await engine();
    server.setDefault(READS);
    await bg.store.insertLocation(at(0));
    await bg.idle();
    await bg.setConfig({ http: { autoSync: false } });
    await bg.store.insertLocation(at(1));
    await bg.idle();
    await clock.advance(60_000);
    await bg.store.insertLocation(at(2));
    await bg.idle();
    expect(server.requests).toHaveLength(1);
    await bg.setConfig({ http: { autoSync: true } });
    await bg.store.insertLocation(at(3));
    await bg.idle();
    // The held records go one per request; the first delivery says the hold, the later ones not.
    const reports = server.requests.slice(1).map(reportOf);
    expect(reports).toHaveLength(3);
    expect(reports[0]?.was).toMatchObject({ kind: 'autosync-off', for: 60 });
    expect(reports.slice(1).map((r) => r?.was)).toEqual([undefined, undefined]);
  });
});
