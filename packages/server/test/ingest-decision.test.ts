// Ingest as a decision (issue 44): what a group of requests comes to, from the requests and what
// the database held, with no database. Each row's expectations are written out here from the
// rules users see (a uuid is stored once, the first sender is credited, a refused device stores
// nothing, a resent quarantined record is kept once, commands ride on one reply).
import { describe, expect, it } from 'vitest';
import type { DroppedReport } from '@waypost/sdk/internal';
import { serializeState } from '../src/fleet/device-state-store.js';
import { emptyDeviceState } from '../src/fleet/evaluate-device.js';
import { fleetContext } from '../src/fleet/ingest-events.js';
import { admit, decideIngest, ingestRows, withCommands, type JobOutcome } from '../src/ingest/ingest-decision.js';
import type { IngestJob } from '../src/ingest/ingest-job.js';
import type { StoredRecord } from '../src/ingest/normalize.js';
import type { QuarantinedRecord } from '../src/ingest/verdicts.js';
import type { DeviceState } from '../src/store/ingest-devices.js';
import { parseServerGeofence } from '../src/store/geofences.js';

const NOW = Date.UTC(2026, 10, 29, 12);
const depot = parseServerGeofence({ identifier: 'depot', latitude: 48, longitude: 11, radius: 200 });
const events = fleetContext({ lateAfterMs: 0, config: { version: 1, sinks: [], geofences: [depot] } }, NOW);
/** A device's stored evaluation state: evaluated before, inside no geofence, on no trip. */
const OUTSIDE_EVERY_FENCE = serializeState(emptyDeviceState());
const key = (deviceId: string, id: string): string => `${deviceId}\u0000${id}`;

const rec = (uuid: string, recordedAt = NOW - 60_000, longitude = 11.01): StoredRecord => ({
  uuid,
  recordedAt,
  latitude: 48,
  longitude,
  record: { uuid },
  clockSuspect: false,
  sequence: null,
});
const bad = (identity: string): QuarantinedRecord => ({
  uuid: identity,
  code: 'OUT_OF_RANGE',
  message: 'latitude 91 is outside -90..90',
  raw: `{"uuid":"${identity}"}`,
  sequence: null,
  identity,
});
const job = (
  deviceId: string,
  records: StoredRecord[],
  extra: { quarantined?: QuarantinedRecord[]; commandsFor?: string; dropped?: DroppedReport } = {},
): IngestJob => ({
  batches: [{ deviceId, records, quarantined: extra.quarantined ?? [] }],
  commandsFor: extra.commandsFor ?? null,
  ...(extra.dropped ? { dropped: extra.dropped } : {}),
});
const active = (extra: Partial<DeviceState> = {}): DeviceState => ({
  status: 'active',
  pendingCommands: false,
  org: null,
  eventState: null,
  records: 0,
  ...extra,
});

/** What a job came to, in the terms its reply uses. */
type Seen = { stored: number; duplicates: number; quarantinedNew: number; returned: string[] } | { refused: string };
const seen = (outcome: { ok: true; value: JobOutcome } | { ok: false; error: unknown }): Seen =>
  outcome.ok
    ? {
        stored: outcome.value.stored,
        duplicates: outcome.value.duplicates,
        quarantinedNew: outcome.value.quarantinedNew,
        returned: outcome.value.returned,
      }
    : { refused: (outcome.error as { code: string }).code };
const ok = (stored: number, duplicates = 0, quarantinedNew = 0, returned: string[] = []): Seen => ({
  stored,
  duplicates,
  quarantinedNew,
  returned,
});

interface Row {
  devices: Record<string, DeviceState>;
  jobs: IngestJob[];
  /** Keys the database held before: records (device, uuid) and quarantined (device, identity). */
  heldLocations?: string[];
  heldQuarantine?: string[];
  outcomes: Seen[];
  /** Per device: stored, duplicates, quarantined now. */
  totals: [string, number, number, number][];
  /** What the group offers the insert: device/uuid of each row. */
  offered: string[];
  /** The group's geofence and device events, per device. */
  fleet?: string[];
}

const table: [string, Row][] = [
  [
    'a uuid sent twice in a group is stored for the first request only',
    {
      devices: { a: active() },
      jobs: [job('a', [rec('u1'), rec('u2')]), job('a', [rec('u2'), rec('u3')])],
      outcomes: [ok(2), ok(1, 1)],
      totals: [['a', 3, 1, 0]],
      offered: ['a/u1', 'a/u2', 'a/u3'],
    },
  ],
  [
    'a uuid the database holds is a duplicate (a resend), still offered to the insert',
    {
      devices: { a: active() },
      jobs: [job('a', [rec('u1'), rec('u2')])],
      heldLocations: [key('a', 'u1')],
      outcomes: [ok(1, 1)],
      totals: [['a', 1, 1, 0]],
      offered: ['a/u1', 'a/u2'],
    },
  ],
  [
    'equal uuids of two devices are two records',
    {
      devices: { a: active(), b: active() },
      jobs: [job('a', [rec('u1')]), job('b', [rec('u1')])],
      outcomes: [ok(1), ok(1)],
      totals: [
        ['a', 1, 0, 0],
        ['b', 1, 0, 0],
      ],
      offered: ['a/u1', 'b/u1'],
    },
  ],
  [
    'a blocked device and a deleted one store nothing; the group goes on',
    {
      devices: { a: active(), b: active({ status: 'blocked' }), c: active({ status: 'deleted' }) },
      jobs: [job('b', [rec('u1')]), job('a', [rec('u1')]), job('c', [rec('u9')])],
      outcomes: [{ refused: 'DEVICE_BLOCKED' }, ok(1), { refused: 'DEVICE_DELETED' }],
      totals: [['a', 1, 0, 0]],
      offered: ['a/u1'],
    },
  ],
  [
    "a banned org's device is refused; a device never seen is taken",
    {
      devices: { b: active({ org: { name: 'acme', status: 'banned' } }) },
      jobs: [job('b', [rec('u1')]), job('new', [rec('u1')])],
      outcomes: [{ refused: 'BANNED' }, ok(1)],
      totals: [['new', 1, 0, 0]],
      offered: ['new/u1'],
    },
  ],
  [
    'a quarantined record is kept once per device: resent, or twice in the group',
    {
      devices: { a: active() },
      jobs: [job('a', [rec('u1')], { quarantined: [bad('x')] }), job('a', [], { quarantined: [bad('x'), bad('y')] })],
      heldQuarantine: [key('a', 'y')],
      outcomes: [ok(1, 0, 1), ok(0, 0, 0)],
      totals: [['a', 1, 0, 1]],
      offered: ['a/u1'],
    },
  ],
  [
    'a device the fleet had declared silent is back (device.active) when it stores a record',
    {
      devices: {
        a: active({ eventState: { cursor: NOW - 3_600_000, state: OUTSIDE_EVERY_FENCE, silentSince: NOW - 600_000 } }),
      },
      jobs: [job('a', [rec('u1')])],
      outcomes: [ok(1, 0, 0, ['a'])],
      totals: [['a', 1, 0, 0]],
      offered: ['a/u1'],
      fleet: ['a device.active'],
    },
  ],
  [
    'a resend makes no event again: nothing stored now, nothing decided',
    {
      devices: {
        a: active({ eventState: { cursor: NOW - 3_600_000, state: OUTSIDE_EVERY_FENCE, silentSince: NOW - 600_000 } }),
      },
      jobs: [job('a', [rec('u1')])],
      heldLocations: [key('a', 'u1')],
      outcomes: [ok(0, 1, 0, ['a'])],
      totals: [['a', 0, 1, 0]],
      offered: ['a/u1'],
      fleet: [],
    },
  ],
  [
    'entering the depot across two requests of one group is one enter, from the records stored now',
    {
      devices: { a: active() },
      jobs: [job('a', [rec('out', NOW - 120_000, 11.01)]), job('a', [rec('in', NOW - 60_000, 11)])],
      outcomes: [ok(1), ok(1)],
      totals: [['a', 2, 0, 0]],
      offered: ['a/in', 'a/out'],
      fleet: ['a geofence.enter'],
    },
  ],
];

describe('decideIngest', () => {
  it.each(table)('%s', (_name, row) => {
    const devices = new Map(Object.entries(row.devices));
    const admission = admit(row.jobs, devices);
    const rows = ingestRows(row.jobs, admission);
    const held = {
      devices,
      locations: new Set(row.heldLocations ?? []),
      quarantine: new Set(row.heldQuarantine ?? []),
    };
    const decision = decideIngest(row.jobs, admission, held, events);
    expect(decision.outcomes.map(seen)).toEqual(row.outcomes);
    expect(decision.totals.map((t) => [t.deviceId, t.stored, t.duplicates, t.quarantined])).toEqual(row.totals);
    expect(rows.locations.map((r) => `${r.deviceId}/${r.record.uuid}`).sort()).toEqual(row.offered);
    if (row.fleet)
      expect(
        decision.fleet.rows
          .map((r) => `${r.event.device} ${r.event.type}`)
          .filter((e) => / (geofence|device)\./.test(e)),
      ).toEqual(row.fleet);
  });

  it("lists each request's newest position with the device's count after it, and the device's newest", () => {
    const devices = new Map([['a', active({ records: 10 })]]);
    const jobs = [job('a', [rec('u1', 1000), rec('u2', 3000)]), job('a', [rec('u3', 2000)])];
    const admission = admit(jobs, devices);
    const decision = decideIngest(jobs, admission, { devices, locations: new Set(), quarantine: new Set() }, events);
    const lasts = decision.outcomes.map((o) => (o.ok ? o.value.lasts : null));
    expect(lasts).toEqual([
      [{ deviceId: 'a', stored: 2, records: 12, latitude: 48, longitude: 11.01, recordedAt: 3000 }],
      [{ deviceId: 'a', stored: 1, records: 13, latitude: 48, longitude: 11.01, recordedAt: 2000 }],
    ]);
    expect(decision.totals[0]!.last).toEqual({ latitude: 48, longitude: 11.01, recordedAt: 3000 });
    // The track pyramid recomputes the hours of the positions stored now.
    expect(decision.marks).toEqual([
      { deviceId: 'a', recordedAt: 1000 },
      { deviceId: 'a', recordedAt: 3000 },
      { deviceId: 'a', recordedAt: 2000 },
    ]);
  });

  it('gives pending commands to the first request of the device only, and keeps accepted drop reports', () => {
    const devices = new Map([
      ['a', active({ pendingCommands: true })],
      ['b', active({ status: 'blocked' })],
    ]);
    const dropped: DroppedReport = [{ reason: 'ttl', range: [1, 3] }];
    const jobs = [
      job('a', [rec('u1')], { commandsFor: 'a', dropped }),
      job('a', [rec('u2')], { commandsFor: 'a' }),
      job('b', [rec('u3')], { commandsFor: 'b', dropped }),
    ];
    const admission = admit(jobs, devices);
    expect(ingestRows(jobs, admission).dropped).toEqual([{ deviceId: 'a', reason: 'ttl', range: [1, 3] }]);
    const decision = decideIngest(jobs, admission, { devices, locations: new Set(), quarantine: new Set() }, events);
    expect(decision.commandsFor).toEqual(['a']);
    const outcomes = withCommands(jobs, decision.outcomes, new Map([['a', [['stop']]]]));
    expect(outcomes.map((o) => (o.ok ? o.value.commands : 'refused'))).toEqual([[['stop']], [], 'refused']);
  });

  it('decides the same when run again (a transaction retried after a fleet change), and changes no job', () => {
    const devices = new Map([
      [
        'a',
        active({ eventState: { cursor: NOW - 3_600_000, state: OUTSIDE_EVERY_FENCE, silentSince: NOW - 600_000 } }),
      ],
    ]);
    const jobs = [
      job('a', [rec('out', NOW - 120_000, 11.01), rec('u1')], { quarantined: [bad('x')] }),
      job('a', [rec('in', NOW - 60_000, 11), rec('out', NOW - 120_000, 11.01)], { commandsFor: 'a' }),
    ];
    const before = structuredClone(jobs);
    const held = { devices, locations: new Set([key('a', 'u1')]), quarantine: new Set<string>() };
    const first = decideIngest(jobs, admit(jobs, devices), held, events);
    const again = decideIngest(jobs, admit(jobs, devices), held, events);
    expect(again).toEqual(first);
    expect(first.outcomes.map(seen)).toEqual([ok(1, 1, 1, ['a']), ok(1, 1, 0, ['a'])]);
    expect(jobs).toEqual(before);
    expect(devices.get('a')!.eventState).toEqual({
      cursor: NOW - 3_600_000,
      state: OUTSIDE_EVERY_FENCE,
      silentSince: NOW - 600_000,
    });
  });
});
