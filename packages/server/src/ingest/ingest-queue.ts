import type { Database, Queryable } from '../db/database.js';
import { takePendingCommands, type Command } from '../store/commands.js';
import {
  addIngestTotals,
  lockDevices,
  registerDevices,
  type DeviceState,
  type IngestTotals,
} from '../store/devices.js';
import { insertLocations, locationKey, type LocationInsert } from '../store/locations.js';
import { fitsOneStatement, insertWithTotals, type DeviceSent } from '../store/insert-with-totals.js';
import { insertDroppedRanges, type DroppedInsert } from '../store/ledger.js';
import { storeQuarantine } from './store-quarantine.js';
import {
  decideGroup,
  fleetContext,
  fleetWrites,
  writeDecision,
  writeLateEvents,
  type FleetDecision,
  type FleetIngestSettings,
} from '../fleet/ingest-events.js';
import { rawState } from '../fleet/device-state-store.js';
import { writeEvents } from '../fleet/event-rows.js';
import { decideWithConfig } from '../fleet/config-version.js';
import { EMPTY_FLEET_CONFIG, type FleetConfig } from '../fleet/fleet-config.js';
import { GroupCommitter, type Outcome } from './group-commit.js';
import type { StoredRecord } from './normalize.js';
import { refuseDevice } from './device-policy.js';
import type { IngestJob } from './ingest-job.js';

/** The newest position a request stored for one of its devices (for live dashboards). */
export interface StoredPosition {
  deviceId: string;
  stored: number;
  /** The device's records once this commit is in: per device, the order of its commits. */
  records: number;
  latitude: number;
  longitude: number;
  recordedAt: number;
}

/** What one request's job came to, once committed. */
export interface JobOutcome {
  stored: number;
  duplicates: number;
  /** The request's records kept in quarantine (issue 19), with why (a resent one too: it is its verdict). */
  quarantined: { uuid: string | null; code: string }[];
  /** Of them, those kept now for the first time (a resent one is kept once: issue 29). */
  quarantinedNew: number;
  commands: Command[];
  lasts: StoredPosition[];
  /** Its devices the fleet had declared silent (device.silent): they are back (issue 31). */
  returned: string[];
}

export type IngestQueue = GroupCommitter<IngestJob, JobOutcome>;

/** Records per group transaction: big enough to amortise a commit, small enough to keep replies prompt. */
const MAX_GROUP_RECORDS = 2000;

const sortedUnique = (values: Iterable<string>): string[] => [...new Set(values)].sort();

function refusalOf(job: IngestJob, devices: Map<string, DeviceState>): Error | null {
  for (const batch of job.batches) {
    const state = devices.get(batch.deviceId);
    const refusal = refuseDevice(batch.deviceId, state?.status ?? 'active', state?.org ?? null);
    if (refusal) return refusal;
  }
  return null;
}

/** Splits the jobs into refused ones (outcome set) and the indexes of the accepted ones. */
function accept(
  jobs: IngestJob[],
  candidates: number[],
  devices: Map<string, DeviceState>,
  outcomes: Outcome<JobOutcome>[],
): number[] {
  return candidates.filter((i) => {
    const refusal = refusalOf(jobs[i]!, devices);
    if (refusal) outcomes[i] = { ok: false, error: refusal };
    return refusal === null;
  });
}

/** Per device of the accepted jobs: the records sent and the records quarantined now. */
function sentPerDevice(jobs: IngestJob[], accepted: number[], keptNow: Map<string, number>): DeviceSent[] {
  const sent = new Map<string, DeviceSent>();
  for (const i of accepted) {
    for (const batch of jobs[i]!.batches) {
      const entry = sent.get(batch.deviceId) ?? {
        deviceId: batch.deviceId,
        sent: 0,
        quarantined: keptNow.get(batch.deviceId) ?? 0,
      };
      entry.sent += batch.records.length;
      sent.set(batch.deviceId, entry);
    }
  }
  return [...sent.values()].sort((a, b) => (a.deviceId < b.deviceId ? -1 : a.deviceId > b.deviceId ? 1 : 0));
}

/** Per device, the first record of each (device, uuid) of the accepted jobs: what the insert stores when none was stored before. */
function firstOfEachKey(
  jobs: IngestJob[],
  accepted: number[],
): { byDevice: Map<string, StoredRecord[]>; count: number } {
  const seen = new Set<string>();
  const byDevice = new Map<string, StoredRecord[]>();
  for (const i of accepted) {
    for (const batch of jobs[i]!.batches) {
      for (const record of batch.records) {
        const key = locationKey(batch.deviceId, record.uuid);
        if (seen.has(key)) continue;
        seen.add(key);
        const list = byDevice.get(batch.deviceId);
        if (list) list.push(record);
        else byDevice.set(batch.deviceId, [record]);
      }
    }
  }
  return { byDevice, count: seen.size };
}

/**
 * Stores several requests in the caller's one transaction, each with its own outcome: a request
 * naming a refused device gets its refusal and stores nothing; the others store their records,
 * each credited with the records it stored first (a uuid sent twice is stored once, for the first).
 */
export async function storeJobs(
  tx: Queryable,
  dialect: Database['dialect'],
  jobs: IngestJob[],
  now: number,
  fleet: FleetIngestSettings & { written: number } = { lateAfterMs: 0, config: EMPTY_FLEET_CONFIG, written: 0 },
): Promise<Outcome<JobOutcome>[]> {
  const outcomes: Outcome<JobOutcome>[] = new Array(jobs.length);
  const devices = await lockDevices(tx, dialect, sortedUnique(jobs.flatMap((j) => j.batches.map((b) => b.deviceId))));
  let accepted = accept(jobs, [...jobs.keys()], devices, outcomes);
  const missing = sortedUnique(
    accepted.flatMap((i) => jobs[i]!.batches.map((b) => b.deviceId)).filter((id) => !devices.has(id)),
  );
  if (missing.length > 0) {
    await registerDevices(tx, missing, now);
    // Another process may have registered (and an admin blocked) one of them meanwhile.
    for (const [id, state] of await lockDevices(tx, dialect, missing)) devices.set(id, state);
    accepted = accept(jobs, accepted, devices, outcomes);
  }

  // Before the records: the devices' counters (written with the insert on PostgreSQL) count only
  // the quarantined records kept now.
  const quarantine = await storeQuarantine(tx, jobs, accepted, now);
  const rows: LocationInsert[] = [];
  for (const i of accepted) {
    for (const batch of jobs[i]!.batches)
      for (const record of batch.records) rows.push({ deviceId: batch.deviceId, record });
  }
  // Fleet events are decided whether or not a sink is configured: the history keeps them.
  const events = fleetContext(fleet, now);
  let decision: FleetDecision | null = null;
  // PostgreSQL, a group that fits one statement: the counters, and the fleet events decided from
  // the records beforehand, ride on the insert (one round trip for all of the group's writes).
  const combined = dialect === 'postgres' && fitsOneStatement(rows.length);
  let fresh: Set<string>;
  if (combined) {
    const candidates = firstOfEachKey(jobs, accepted);
    decision = decideGroup(events, devices, candidates.byDevice);
    const writes = fleetWrites(events, decision, candidates.count);
    fresh = await insertWithTotals(tx, rows, sentPerDevice(jobs, accepted, quarantine.perDevice), now, writes);
    // A record stored before (a resend): the statement wrote no events; decided again below.
    if (fresh.size === candidates.count) fleet.written += writes.outboxRows;
    else decision = null;
  } else fresh = await insertLocations(tx, rows, now);
  const dropped: DroppedInsert[] = [];
  for (const i of accepted) {
    const { commandsFor, dropped: report } = jobs[i]!;
    if (commandsFor !== null) for (const entry of report ?? []) dropped.push({ deviceId: commandsFor, ...entry });
  }
  if (dropped.length > 0) await insertDroppedRanges(tx, dropped, now);

  const totals = new Map<string, IngestTotals>();
  // Each device's count as its row was locked, plus what each request stored, in order.
  const counted = new Map<string, number>();
  // The records stored now, per device: fleet events come from these only (a resent one makes none).
  const freshByDevice = new Map<string, StoredRecord[]>();
  for (const i of accepted) {
    const outcome: JobOutcome = {
      stored: 0,
      duplicates: 0,
      quarantined: [],
      quarantinedNew: quarantine.creditOf(jobs[i]!),
      commands: [],
      lasts: [],
      returned: [
        ...new Set(
          jobs[i]!.batches.map((b) => b.deviceId).filter((id) => devices.get(id)?.eventState?.silentSince != null),
        ),
      ],
    };
    for (const batch of jobs[i]!.batches) {
      const total = totals.get(batch.deviceId) ?? {
        deviceId: batch.deviceId,
        stored: 0,
        duplicates: 0,
        quarantined: quarantine.perDevice.get(batch.deviceId) ?? 0,
        last: null,
      };
      totals.set(batch.deviceId, total);
      for (const entry of batch.quarantined ?? []) outcome.quarantined.push({ uuid: entry.uuid, code: entry.code });
      let stored = 0;
      let last: IngestTotals['last'] = null;
      for (const r of batch.records) {
        // delete: of equal (device, uuid) in this group, only the first is credited as stored.
        if (!fresh.delete(locationKey(batch.deviceId, r.uuid))) {
          total.duplicates += 1;
          outcome.duplicates += 1;
          continue;
        }
        stored += 1;
        const freshOfDevice = freshByDevice.get(batch.deviceId);
        if (freshOfDevice) freshOfDevice.push(r);
        else freshByDevice.set(batch.deviceId, [r]);
        if (r.latitude === null || r.longitude === null) continue;
        if (!last || r.recordedAt >= last.recordedAt)
          last = { latitude: r.latitude, longitude: r.longitude, recordedAt: r.recordedAt };
      }
      total.stored += stored;
      outcome.stored += stored;
      const records = (counted.get(batch.deviceId) ?? devices.get(batch.deviceId)?.records ?? 0) + stored;
      counted.set(batch.deviceId, records);
      if (last) {
        outcome.lasts.push({ deviceId: batch.deviceId, stored, records, ...last });
        if (!total.last || last.recordedAt >= total.last.recordedAt) total.last = last;
      }
    }
    outcomes[i] = { ok: true, value: outcome };
  }
  // In this transaction: the events commit with their records or not at all (history, outbox).
  if (decision === null) {
    decision = decideGroup(events, devices, freshByDevice);
    if (combined) fleet.written += await writeDecision(tx, events, decision);
    else {
      // The devices' new states ride on the counters' update: each device row written once.
      for (const state of decision.states) totals.get(state.deviceId)!.eventState = rawState(state);
      await addIngestTotals(tx, [...totals.values()], now);
      fleet.written += await writeEvents(tx, decision.rows, events.sinks, now);
    }
  }
  fleet.written += await writeLateEvents(tx, events, decision);

  // Commands queued after lockDevices read none pending ride on the device's next reply instead.
  const commandsFor = accepted
    .map((i) => jobs[i]!.commandsFor)
    .filter((id): id is string => id !== null && devices.get(id)?.pendingCommands === true);
  const commands = await takePendingCommands(tx, sortedUnique(commandsFor), now);
  for (const i of accepted) {
    const deviceId = jobs[i]!.commandsFor;
    const taken = deviceId === null ? undefined : commands.get(deviceId);
    if (deviceId === null || !taken) continue;
    // A command rides on one reply only: the first request of the group for that device.
    commands.delete(deviceId);
    (outcomes[i] as { ok: true; value: JobOutcome }).value.commands = taken;
  }
  return outcomes;
}

/**
 * The process's ingest queue. SQLite has one writer, so one group at a time; PostgreSQL commits
 * a few groups at once (its own WAL flush then covers several, and their round trips overlap),
 * each on its own pooled connection, leaving one connection for the rest of the API.
 */
export function createIngestQueue(
  db: Database,
  now: () => number,
  poolSize: number,
  fleet: {
    lateAfterMs: number;
    /** The fleet configuration at the version the transaction read (fleet-config.ts); none: no events. */
    config: ((tx: Queryable, version: number) => Promise<FleetConfig>) | null;
    committed(): void;
  } = { lateAfterMs: 0, config: null, committed: () => undefined },
): IngestQueue {
  const concurrency = db.dialect === 'sqlite' ? 1 : Math.max(1, Math.min(4, poolSize - 1));
  const configAt = fleet.config;
  return new GroupCommitter<IngestJob, JobOutcome>(
    async (jobs) => {
      const events = { lateAfterMs: fleet.lateAfterMs, config: EMPTY_FLEET_CONFIG, written: 0 };
      // Decided with the configuration every process sees, and committed only while it still is
      // (config-version.ts): run again, from nothing written, when a change committed meanwhile.
      const outcomes = configAt
        ? await decideWithConfig(db, async (tx, version) => {
            events.config = await configAt(tx, version);
            events.written = 0;
            return storeJobs(tx, db.dialect, jobs, now(), events);
          })
        : await db.transaction((tx) => storeJobs(tx, db.dialect, jobs, now(), events));
      // Delivery runs off the ingest path: it is only told there is work once the events are committed.
      if (events.written > 0) fleet.committed();
      return outcomes;
    },
    { concurrency, maxGroupSize: MAX_GROUP_RECORDS },
  );
}
