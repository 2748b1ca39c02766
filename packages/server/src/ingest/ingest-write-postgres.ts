import type { Queryable } from '../db/database.js';
import { insertWithTotals } from '../store/insert-with-totals.js';
import { fleetWrites, writeDecision } from '../fleet/ingest-events.js';
import { decideIngest, heldLocations } from './ingest-decision.js';
import type { GroupWrite, GroupWritten } from './group-write.js';

/**
 * PostgreSQL's writer for a group that fits one statement: decided first as if none of its records
 * were stored before, so that the records, the devices' counters and the fleet events all ride on
 * one insert (one round trip for all of the group's writes). The statement computes the counters
 * from what it stored, and writes the events only when it stored every record they were decided
 * from; when it did not (a resend), the group is decided again from what it stored.
 */
export async function writeInOneStatement(tx: Queryable, group: GroupWrite): Promise<GroupWritten> {
  const { jobs, admission, rows, held, events } = group;
  const hoped = decideIngest(jobs, admission, { ...held, locations: new Set() }, events);
  const writes = fleetWrites(events, hoped.fleet, rows.locations.length);
  const sent = hoped.totals.map((t) => ({
    deviceId: t.deviceId,
    sent: t.stored + t.duplicates,
    quarantined: t.quarantined,
  }));
  const storedNow = await insertWithTotals(tx, rows.locations, sent, events.now, writes);
  if (storedNow.every) return { decision: hoped, written: writes.outboxRows };
  const decision = decideIngest(
    jobs,
    admission,
    { ...held, locations: heldLocations(rows.locations, storedNow.keys) },
    events,
  );
  return { decision, written: await writeDecision(tx, events, decision.fleet) };
}
