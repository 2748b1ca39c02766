import type { Clock } from '../ports/clock.js';
import type { KeyValueStore, StoredRecord } from '../ports/store.js';

/** The kv key of the records a server refused on their own (issue 19). */
export const REFUSED_KEY = 'sync.refused';
/** Refused records remembered at most; the oldest entries are forgotten first (and retried in batches). */
export const MAX_REFUSED = 200;
const FIRST_RETRY_MS = 30_000;
const MAX_RETRY_MS = 60 * 60 * 1000;

/** A refused record is retried alone after 30 s, then 1, 2, 4 ... minutes, at most hourly. */
export const refusalBackoffMs = (attempts: number): number =>
  Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), MAX_RETRY_MS);

export interface RefusedEntry {
  attempts: number;
  /** Epoch ms before which automatic uploads leave it alone. */
  nextAt: number;
}

/** What a locked batch becomes: requests to send in order, and refused records to hold back. */
export interface BatchPlan {
  sends: StoredRecord[][];
  held: StoredRecord[];
}

/**
 * Splits a locked batch around the records a server refused on their own: each of those is sent
 * alone (never again in a batch with others until it is accepted) when its backoff is over or the
 * application called sync() (spec 7.3: sync() retries), and held back otherwise; the records
 * between them keep their order.
 */
export function planBatch(
  batch: readonly StoredRecord[],
  refused: ReadonlyMap<number, RefusedEntry>,
  now: number,
  manual: boolean,
): BatchPlan {
  const plan: BatchPlan = { sends: [], held: [] };
  let run: StoredRecord[] = [];
  for (const record of batch) {
    const entry = refused.get(record.id);
    if (!entry) {
      run.push(record);
      continue;
    }
    if (run.length > 0) plan.sends.push(run);
    run = [];
    if (manual || entry.nextAt <= now) plan.sends.push([record]);
    else plan.held.push(record);
  }
  if (run.length > 0) plan.sends.push(run);
  return plan;
}

/**
 * The refused records, by queue id, persisted in the kv so a restart does not send them in a batch
 * again. Only the uploader uses it, one drain at a time.
 */
export class RefusedRecords {
  private entries: Map<number, RefusedEntry> | null = null;

  constructor(
    private readonly kv: KeyValueStore,
    private readonly clock: Clock,
  ) {}

  /** The entries (read from the kv once per instance). */
  async current(): Promise<ReadonlyMap<number, RefusedEntry>> {
    return (this.entries ??= await this.read());
  }

  /** The record was refused alone (again): it waits for its next backoff. */
  async refuse(id: number): Promise<RefusedEntry> {
    const entries = await this.mutable();
    const attempts = (entries.get(id)?.attempts ?? 0) + 1;
    const entry = { attempts, nextAt: this.clock.now() + refusalBackoffMs(attempts) };
    entries.delete(id);
    entries.set(id, entry);
    for (const oldest of entries.keys()) {
      if (entries.size <= MAX_REFUSED) break;
      entries.delete(oldest);
    }
    await this.write(entries);
    return entry;
  }

  /** These records were delivered (or are gone): forget any of them. */
  async settled(ids: readonly number[]): Promise<void> {
    const entries = await this.mutable();
    if (entries.size === 0) return;
    let changed = false;
    for (const id of ids) changed = entries.delete(id) || changed;
    if (changed) await this.write(entries);
  }

  private async mutable(): Promise<Map<number, RefusedEntry>> {
    return (this.entries ??= await this.read());
  }

  private async read(): Promise<Map<number, RefusedEntry>> {
    const entries = new Map<number, RefusedEntry>();
    const text = await this.kv.get(REFUSED_KEY);
    if (text === undefined) return entries;
    try {
      for (const [id, attempts, nextAt] of JSON.parse(text) as unknown[][]) {
        if (Number.isSafeInteger(id) && Number.isSafeInteger(attempts) && Number.isFinite(nextAt)) {
          entries.set(id as number, { attempts: attempts as number, nextAt: nextAt as number });
        }
      }
    } catch {
      // Not what this SDK writes: forget it (the records are then tried in batches again).
    }
    return entries;
  }

  private async write(entries: Map<number, RefusedEntry>): Promise<void> {
    if (entries.size === 0) return this.kv.delete(REFUSED_KEY);
    await this.kv.set(REFUSED_KEY, JSON.stringify([...entries].map(([id, e]) => [id, e.attempts, e.nextAt])));
  }
}
