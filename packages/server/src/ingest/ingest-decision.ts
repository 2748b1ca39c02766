import type { Command } from '../store/commands.js';
import type { DeviceState, IngestTotals } from '../store/ingest-devices.js';
import { heldKeys, locationKey, type LocationInsert } from '../store/locations.js';
import type { DroppedInsert } from '../store/ledger.js';
import { identityOf, quarantineKey, type QuarantineInsert } from '../store/quarantine.js';
import { decideGroup, type FleetContext, type FleetDecision } from '../fleet/ingest-events.js';
import type { Outcome } from './group-commit.js';
import type { StoredRecord } from './normalize.js';
import { credentialRequired, refuseDevice } from './device-policy.js';
import type { IngestJob } from './ingest-job.js';

/**
 * Ingest as a decision (issue 44): what a group of requests comes to, from the requests and what
 * the database held, is decided here without I/O; the writers (ingest-write-*.ts) only execute it.
 * Nothing here changes its arguments: a transaction run again (config-version.ts) decides afresh
 * from the same jobs and gets the same answer.
 */

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

/** Which jobs may store: the others' refusals (a blocked or deleted device, a banned org). */
export interface Admission {
  /** Indexes of the jobs that store, in order. */
  accepted: number[];
  refused: Map<number, Error>;
  /** Devices of accepted jobs the database holds no row for: registered before anything is written. */
  unregistered: string[];
}

const sortedUnique = (values: Iterable<string>): string[] => [...new Set(values)].sort();

/** Admits the jobs at `candidates` (all at first; the accepted ones again once new devices are registered). */
export function admit(
  jobs: readonly IngestJob[],
  devices: ReadonlyMap<string, DeviceState>,
  candidates: readonly number[] = [...jobs.keys()],
): Admission {
  const accepted: number[] = [];
  const refused = new Map<number, Error>();
  for (const i of candidates) {
    let refusal: Error | null = null;
    for (const batch of jobs[i]!.batches) {
      const state = devices.get(batch.deviceId);
      refusal = refuseDevice(batch.deviceId, state?.status ?? 'active', state?.org ?? null);
      // Read on the locked row: a device that holds a token or key is never written without it.
      if (!refusal && jobs[i]!.anonymous && state?.credentialed) refusal = credentialRequired(batch.deviceId);
      if (refusal) break;
    }
    if (refusal) refused.set(i, refusal);
    else accepted.push(i);
  }
  const named = accepted.flatMap((i) => jobs[i]!.batches.map((b) => b.deviceId));
  return { accepted, refused, unregistered: sortedUnique(named.filter((id) => !devices.has(id))) };
}

/** The rows a group offers the database: each decided against what it already holds (decideIngest). */
export interface IngestRows {
  /** The first record of each (device, uuid) of the accepted jobs: of equal ones, the first is stored. */
  locations: LocationInsert[];
  /** The first quarantined record of each (device, identity). */
  quarantine: QuarantineInsert[];
  /** Drops the requests' devices reported (the ledger's third column). */
  dropped: DroppedInsert[];
}

/**
 * Each device's uuids seen so far: a set per device, not one set of "device\0uuid" keys (ingest
 * decides every record of every upload: a key built per record cost a string and its hash each).
 */
class UuidsByDevice {
  private readonly byDevice = new Map<string, Set<string>>();

  /** Adds it; whether it was new. */
  add(deviceId: string, uuid: string): boolean {
    let uuids = this.byDevice.get(deviceId);
    if (!uuids) this.byDevice.set(deviceId, (uuids = new Set()));
    if (uuids.has(uuid)) return false;
    uuids.add(uuid);
    return true;
  }
}

export function ingestRows(jobs: readonly IngestJob[], admission: Admission): IngestRows {
  const rows: IngestRows = { locations: [], quarantine: [], dropped: [] };
  const seen = new UuidsByDevice();
  const seenQuarantined = new Set<string>();
  for (const i of admission.accepted) {
    const { batches, commandsFor, dropped } = jobs[i]!;
    for (const { deviceId, records, quarantined } of batches) {
      for (const record of records) if (seen.add(deviceId, record.uuid)) rows.locations.push({ deviceId, record });
      for (const entry of quarantined ?? []) {
        const key = quarantineKey(deviceId, identityOf(entry));
        if (!seenQuarantined.has(key)) rows.quarantine.push({ deviceId, entry });
        seenQuarantined.add(key);
      }
    }
    if (commandsFor !== null) for (const entry of dropped ?? []) rows.dropped.push({ deviceId: commandsFor, ...entry });
  }
  return rows;
}

/** What the database held before this transaction's writes, of what concerns the group. */
export interface Held {
  /** The accepted jobs' devices, as locked. */
  devices: ReadonlyMap<string, DeviceState>;
  /** Keys (locationKey) of the group's records already stored: each is a duplicate now. */
  locations: ReadonlySet<string>;
  /** Keys (quarantineKey) of the group's quarantined records already kept (a resend, issue 29). */
  quarantine: ReadonlySet<string>;
}

/** The keys of `offered` the database held: those its insert did not store now. */
export function heldOf(offered: readonly string[], storedNow: ReadonlySet<string>): Set<string> {
  return new Set(offered.filter((key) => !storedNow.has(key)));
}

/**
 * The keys (locationKey) of the rows offered that the database held: those its insert did not store
 * now. The rows are unique (ingestRows), so when it stored as many as were offered it held none:
 * the usual case, decided without a key per row.
 */
export function heldLocations(offered: readonly LocationInsert[], storedNow: ReadonlySet<string>): ReadonlySet<string> {
  return storedNow.size === offered.length ? NONE_HELD : heldKeys(offered, storedNow);
}

const NONE_HELD: ReadonlySet<string> = new Set();

/** What the transaction writes after its inserts, and what each job is answered. */
export interface IngestDecision {
  /** Per job: its outcome (commands are added once taken), or its refusal. */
  outcomes: Outcome<JobOutcome>[];
  /** Per device, in id order: what its counters add (records sent = stored + duplicates). */
  totals: IngestTotals[];
  /** The fleet events of the records stored now, and the devices' states after them. */
  fleet: FleetDecision;
  /** Positions stored now: the track pyramid's hours to recompute. */
  marks: { deviceId: string; recordedAt: number }[];
  /** Devices whose pending commands ride on this commit's replies. */
  commandsFor: string[];
}

/**
 * Each record is stored unless the database held its (device, uuid) or an earlier job of the group
 * sent it; each quarantined record is kept once per (device, identity) the same way. A job is
 * credited with what it stored first; the fleet decides its events from the records stored now.
 */
export function decideIngest(
  jobs: readonly IngestJob[],
  admission: Admission,
  held: Held,
  events: FleetContext,
): IngestDecision {
  const outcomes: Outcome<JobOutcome>[] = new Array(jobs.length);
  for (const [i, error] of admission.refused) outcomes[i] = { ok: false, error };
  const totals = new Map<string, IngestTotals>();
  const taken = new UuidsByDevice();
  const anyHeld = held.locations.size > 0;
  const takenQuarantined = new Set<string>();
  const storedNow = new Map<string, StoredRecord[]>();
  const counted = new Map<string, number>();
  const marks: IngestDecision['marks'] = [];
  for (const i of admission.accepted) {
    const outcome: JobOutcome = {
      stored: 0,
      duplicates: 0,
      quarantined: [],
      quarantinedNew: 0,
      commands: [],
      lasts: [],
      returned: [
        ...new Set(
          jobs[i]!.batches.map((b) => b.deviceId).filter((id) => held.devices.get(id)?.eventState?.silentSince != null),
        ),
      ],
    };
    for (const { deviceId, records, quarantined } of jobs[i]!.batches) {
      let total = totals.get(deviceId);
      if (!total) totals.set(deviceId, (total = { deviceId, stored: 0, duplicates: 0, quarantined: 0, last: null }));
      for (const entry of quarantined ?? []) {
        outcome.quarantined.push({ uuid: entry.uuid, code: entry.code });
        const key = quarantineKey(deviceId, identityOf(entry));
        if (held.quarantine.has(key) || takenQuarantined.has(key)) continue;
        takenQuarantined.add(key);
        outcome.quarantinedNew += 1;
        total.quarantined += 1;
      }
      let stored = 0;
      let last: IngestTotals['last'] = null;
      for (const r of records) {
        if ((anyHeld && held.locations.has(locationKey(deviceId, r.uuid))) || !taken.add(deviceId, r.uuid)) {
          total.duplicates += 1;
          outcome.duplicates += 1;
          continue;
        }
        stored += 1;
        const ofDevice = storedNow.get(deviceId);
        if (ofDevice) ofDevice.push(r);
        else storedNow.set(deviceId, [r]);
        if (r.latitude === null || r.longitude === null) continue;
        marks.push({ deviceId, recordedAt: r.recordedAt });
        if (!last || r.recordedAt >= last.recordedAt)
          last = { latitude: r.latitude, longitude: r.longitude, recordedAt: r.recordedAt };
      }
      total.stored += stored;
      outcome.stored += stored;
      // The device's count as its row was locked, plus what each request stored, in order.
      const count = (counted.get(deviceId) ?? held.devices.get(deviceId)?.records ?? 0) + stored;
      counted.set(deviceId, count);
      if (last) {
        outcome.lasts.push({ deviceId, stored, records: count, ...last });
        if (!total.last || last.recordedAt >= total.last.recordedAt) total.last = last;
      }
    }
    outcomes[i] = { ok: true, value: outcome };
  }
  // Commands queued after the devices were read ride on the device's next reply instead.
  const commandsFor = admission.accepted
    .map((i) => jobs[i]!.commandsFor)
    .filter((id): id is string => id !== null && held.devices.get(id)?.pendingCommands === true);
  return {
    outcomes,
    totals: [...totals.values()].sort((a, b) => (a.deviceId < b.deviceId ? -1 : a.deviceId > b.deviceId ? 1 : 0)),
    fleet: decideGroup(events, held.devices, storedNow),
    marks,
    commandsFor: sortedUnique(commandsFor),
  };
}

/** Gives each device's taken commands to the first accepted job of the group that asked for them. */
export function withCommands(
  jobs: readonly IngestJob[],
  outcomes: readonly Outcome<JobOutcome>[],
  taken: ReadonlyMap<string, Command[]>,
): Outcome<JobOutcome>[] {
  const given = new Set<string>();
  return outcomes.map((outcome, i) => {
    const deviceId = jobs[i]!.commandsFor;
    const commands = deviceId === null ? undefined : taken.get(deviceId);
    if (!outcome.ok || deviceId === null || !commands || given.has(deviceId)) return outcome;
    // A command rides on one reply only: the first request of the group for that device.
    given.add(deviceId);
    return { ok: true, value: { ...outcome.value, commands } };
  });
}
