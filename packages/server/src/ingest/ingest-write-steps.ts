import type { Queryable } from '../db/database.js';
import { addIngestTotals } from '../store/ingest-devices.js';
import { insertLocations } from '../store/locations.js';
import { markChangedHours } from '../track-tiles/pyramid-store.js';
import { rawState } from '../fleet/device-state-store.js';
import { writeEvents } from '../fleet/event-rows.js';
import { decideIngest } from './ingest-decision.js';
import type { GroupWrite, GroupWritten } from './group-write.js';

/**
 * SQLite's writer (and PostgreSQL's for a group too large for one statement): the records first,
 * then the decision from what the insert stored, then its writes, one statement each (SQLite
 * answers in-process: a statement there costs no round trip).
 */
export async function writeInSteps(tx: Queryable, group: GroupWrite): Promise<GroupWritten> {
  const { jobs, admission, rows, held, events } = group;
  const heldNow = await insertLocations(tx, rows.locations, events.now);
  const decision = decideIngest(jobs, admission, { ...held, locations: heldNow }, events);
  // SQLite's track pyramid is marked here, once per hour, not by a trigger per row (track-tiles/schema.ts).
  await markChangedHours(tx, decision.marks);
  // The devices' new fleet states ride on the counters' update: each device row written once.
  const states = new Map(decision.fleet.states.map((state) => [state.deviceId, rawState(state)]));
  await addIngestTotals(
    tx,
    decision.totals.map((total) =>
      states.has(total.deviceId) ? { ...total, eventState: states.get(total.deviceId)! } : total,
    ),
    events.now,
  );
  const written = await writeEvents(tx, decision.fleet.rows, events.sinks, events.now);
  return { decision, written };
}
