import type { FleetContext } from '../fleet/ingest-events.js';
import type { Admission, Held, IngestDecision, IngestRows } from './ingest-decision.js';
import type { IngestJob } from './ingest-job.js';

// What the shared ingest flow (ingest-write.ts) and each dialect's writer pass each other: apart,
// so that the writers need not import the flow that calls them.

/** What a dialect's writer is given: the group, its rows, and what the database held but the records. */
export interface GroupWrite {
  jobs: readonly IngestJob[];
  admission: Admission;
  rows: IngestRows;
  held: Omit<Held, 'locations'>;
  events: FleetContext;
}

/** What a writer wrote: the decision it executed, and the outbox rows (delivery is told of them). */
export interface GroupWritten {
  decision: IngestDecision;
  written: number;
}
