import type { Database, Queryable } from '../db/database.js';
import { decideWithConfig } from '../fleet/config-version.js';
import { EMPTY_FLEET_CONFIG, type FleetConfig } from '../fleet/fleet-config.js';
import { GroupCommitter } from './group-commit.js';
import type { JobOutcome } from './ingest-decision.js';
import type { IngestJob } from './ingest-job.js';
import { ingestGroup } from './ingest-write.js';

export type { JobOutcome, StoredPosition } from './ingest-decision.js';

export type IngestQueue = GroupCommitter<IngestJob, JobOutcome>;

/** Records per group transaction: big enough to amortise a commit, small enough to keep replies prompt. */
const MAX_GROUP_RECORDS = 2000;
/**
 * Upload bytes parsed at once per commit slot (parse-admission.ts): 900 to 1,700 records as
 * devices send them (300 to 600 bytes each), most of a group, so every slot's next group is parsed
 * and waiting. At 1 MiB it barely bound under the ingest bench's load (bodies of 31 KB: about 33
 * of 50 devices' uploads parsed at once); at 512 KiB about 16 are (issue 43, history session 25).
 */
const PARSE_BYTES_PER_SLOT = 512 * 1024;

/** The parse admission's budget for `queue`. */
export const parseBudgetBytes = (queue: IngestQueue): number => queue.slots * PARSE_BYTES_PER_SLOT;

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
      const lateAfterMs = fleet.lateAfterMs;
      // Decided with the configuration every process sees, and committed only while it still is
      // (config-version.ts): run again, from nothing written, when a change committed meanwhile.
      const { outcomes, written } = configAt
        ? await decideWithConfig(db, async (tx, version) =>
            ingestGroup(tx, db.dialect, jobs, now(), { lateAfterMs, config: await configAt(tx, version) }),
          )
        : await db.transaction((tx) =>
            ingestGroup(tx, db.dialect, jobs, now(), { lateAfterMs, config: EMPTY_FLEET_CONFIG }),
          );
      // Delivery runs off the ingest path: it is only told there is work once the events are committed.
      if (written > 0) fleet.committed();
      return outcomes;
    },
    { concurrency, maxGroupSize: MAX_GROUP_RECORDS },
  );
}
