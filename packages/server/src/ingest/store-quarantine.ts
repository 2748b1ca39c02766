import type { Queryable } from '../db/database.js';
import { identityOf, insertQuarantine, quarantineKey, type QuarantineInsert } from '../store/quarantine.js';
import type { IngestJob } from './ingest-job.js';

/** What a group's quarantine came to: who is credited with the records kept now. */
export interface QuarantineStored {
  /** Per device, the records kept now (what its counter and ledger add). */
  perDevice: Map<string, number>;
  /** The records a job kept first (the metric's share of that request; call once per job, in order). */
  creditOf(job: IngestJob): number;
}

/**
 * Keeps the quarantined records of a group's accepted jobs, once per device and identity (issue
 * 29): a record kept before, by an earlier request or earlier in this group, is not kept again, and
 * of equal records in the group only the first job is credited, as with stored records.
 */
export async function storeQuarantine(
  tx: Queryable,
  jobs: readonly IngestJob[],
  accepted: readonly number[],
  now: number,
): Promise<QuarantineStored> {
  const rows: QuarantineInsert[] = [];
  for (const i of accepted)
    for (const batch of jobs[i]!.batches)
      for (const entry of batch.quarantined ?? []) rows.push({ deviceId: batch.deviceId, entry });
  const keptNow = rows.length > 0 ? await insertQuarantine(tx, rows, now) : new Set<string>();
  const perDevice = new Map<string, number>();
  const counted = new Set<string>();
  for (const { deviceId, entry } of rows) {
    const key = quarantineKey(deviceId, identityOf(entry));
    if (!keptNow.has(key) || counted.has(key)) continue;
    counted.add(key);
    perDevice.set(deviceId, (perDevice.get(deviceId) ?? 0) + 1);
  }
  const uncredited = new Set(keptNow);
  return {
    perDevice,
    creditOf(job) {
      let credited = 0;
      for (const batch of job.batches)
        for (const entry of batch.quarantined ?? [])
          if (uncredited.delete(quarantineKey(batch.deviceId, identityOf(entry)))) credited += 1;
      return credited;
    },
  };
}
