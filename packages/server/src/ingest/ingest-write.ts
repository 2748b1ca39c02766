import type { Database, Queryable } from '../db/database.js';
import { takePendingCommands } from '../store/commands.js';
import { lockDevices, registerDevices, type DeviceState } from '../store/ingest-devices.js';
import { fitsOneStatement } from '../store/insert-with-totals.js';
import { insertDroppedRanges } from '../store/ledger.js';
import { identityOf, insertQuarantine, quarantineKey } from '../store/quarantine.js';
import { fleetContext, writeLateEvents, type FleetIngestSettings } from '../fleet/ingest-events.js';
import { EMPTY_FLEET_CONFIG } from '../fleet/fleet-config.js';
import type { Outcome } from './group-commit.js';
import { admit, heldOf, ingestRows, withCommands, type Admission, type JobOutcome } from './ingest-decision.js';
import type { IngestJob } from './ingest-job.js';
import { writeInOneStatement } from './ingest-write-postgres.js';
import { writeInSteps } from './ingest-write-steps.js';
import type { GroupWrite } from './group-write.js';

/** The group's devices, locked, those seen for the first time registered; and which jobs may store. */
async function readDevices(
  tx: Queryable,
  dialect: Database['dialect'],
  jobs: readonly IngestJob[],
  now: number,
): Promise<{ devices: Map<string, DeviceState>; admission: Admission }> {
  const ids = [...new Set(jobs.flatMap((job) => job.batches.map((b) => b.deviceId)))].sort();
  const devices = await lockDevices(tx, dialect, ids);
  const first = admit(jobs, devices);
  if (first.unregistered.length === 0) return { devices, admission: first };
  await registerDevices(tx, first.unregistered, now);
  // Another process may have registered (and an admin blocked) one of them meanwhile.
  for (const [id, state] of await lockDevices(tx, dialect, first.unregistered)) devices.set(id, state);
  const again = admit(jobs, devices, first.accepted);
  return { devices, admission: { ...again, refused: new Map([...first.refused, ...again.refused]) } };
}

/**
 * Stores a group of requests in the caller's one transaction, each with its own outcome: read what
 * the database holds, decide (ingest-decision.ts), write with the dialect's writer. Changes nothing
 * it is given: run again in a new transaction (config-version.ts), it decides the same way.
 */
export async function ingestGroup(
  tx: Queryable,
  dialect: Database['dialect'],
  jobs: readonly IngestJob[],
  now: number,
  fleet: FleetIngestSettings = { lateAfterMs: 0, config: EMPTY_FLEET_CONFIG },
): Promise<{ outcomes: Outcome<JobOutcome>[]; written: number }> {
  const { devices, admission } = await readDevices(tx, dialect, jobs, now);
  const rows = ingestRows(jobs, admission);
  // Before the records: the devices' counters (written with the insert on PostgreSQL) count only
  // the quarantined records kept now.
  const keptNow = rows.quarantine.length > 0 ? await insertQuarantine(tx, rows.quarantine, now) : new Set<string>();
  const offered = rows.quarantine.map((row) => quarantineKey(row.deviceId, identityOf(row.entry)));
  // Fleet events are decided whether or not a sink is configured: the history keeps them.
  const events = fleetContext(fleet, now);
  const group: GroupWrite = { jobs, admission, rows, held: { devices, quarantine: heldOf(offered, keptNow) }, events };
  const write = dialect === 'postgres' && fitsOneStatement(rows.locations.length) ? writeInOneStatement : writeInSteps;
  const { decision, written } = await write(tx, group);
  if (rows.dropped.length > 0) await insertDroppedRanges(tx, rows.dropped, now);
  // The events of records behind ones evaluated before read the stored track: after the insert.
  const late = await writeLateEvents(tx, events, decision.fleet);
  const taken = await takePendingCommands(tx, decision.commandsFor, now);
  return { outcomes: withCommands(jobs, decision.outcomes, taken), written: written + late };
}
