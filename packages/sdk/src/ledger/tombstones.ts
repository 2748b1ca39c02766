import type { DropReason } from '../events/types.js';
import type { KeyValueStore } from '../ports/store.js';
import { DROP_REASONS, formatDroppedHeader, noDrops, type PendingDrops } from './dropped-header.js';
import { EPOCH_KEY, EPOCH_PATTERN } from './epoch.js';
import { normalize, subtract, type Range } from './ranges.js';

/** The kv key of the dropped sequence numbers not yet reported to a server. */
export const TOMBSTONES_KEY = 'ledger.dropped';

/**
 * Ranges kept per reason at most. Ranges merge as they grow, so only a queue that loses every other
 * record for a long time, to a server that never reads the reports, reaches it; then the oldest
 * reports are forgotten (and those numbers show as missing) rather than the kv growing for ever.
 */
export const MAX_PENDING_RANGES = 5000;

/** What one upload carries: the header's value and exactly the ranges it names. */
export interface DropReport {
  value: string;
  sent: PendingDrops;
}

/**
 * The SDK's side of the delivery ledger's tombstones (issue 19): the sequence numbers of records
 * that left the queue undelivered on purpose (onDrop's ttl, cap and destroyed), persisted in the kv
 * until an upload that carried them got a 2xx. Only servers that answered `Waypost-Ledger: 1` get
 * the report (see dropped-header.ts). Every change is a read-modify-write of one kv value, so they
 * run one after another.
 */
export class Tombstones {
  private tail: Promise<unknown> = Promise.resolve();
  /** Upload URLs whose server said it reads the reports (for the life of the instance). */
  private readonly readers = new Set<string>();
  /** Of them, those whose server keeps each numbering apart (reports name the epoch). */
  private readonly epochReaders = new Set<string>();

  constructor(private readonly kv: KeyValueStore) {}

  /** Records that these numbers were dropped for `reason`. */
  add(reason: DropReason, sequences: readonly number[]): Promise<void> {
    if (sequences.length === 0) return Promise.resolve();
    return this.serial(async () => {
      const pending = await this.read();
      const merged = normalize([...pending[reason], ...sequences.map((n): Range => [n, n])]);
      pending[reason] = merged.slice(Math.max(0, merged.length - MAX_PENDING_RANGES));
      await this.write(pending);
    });
  }

  /** What a response of `url` said (its Waypost-Ledger and Waypost-Ledger-Epochs headers, if any). */
  heard(url: string, ledger: string | undefined, epochs?: string): void {
    if (ledger?.trim() === '1') this.readers.add(url);
    if (ledger?.trim() === '1' && epochs?.trim() === '1') this.epochReaders.add(url);
  }

  /**
   * The report for the next upload to `url`, or null (nothing pending, or a server that would not
   * read it). The numbers pending are the current numbering's (they live in the same store), so a
   * server that keeps numberings apart is told its epoch.
   */
  take(url: string): Promise<DropReport | null> {
    if (!this.readers.has(url)) return Promise.resolve(null);
    return this.serial(async () => {
      const epoch = this.epochReaders.has(url) ? ((await this.kv.get(EPOCH_KEY)) ?? null) : null;
      return formatDroppedHeader(await this.read(), epoch !== null && EPOCH_PATTERN.test(epoch) ? epoch : null);
    });
  }

  /** An upload carrying `report` got a 2xx: its numbers are reported. */
  settle(report: DropReport): Promise<void> {
    return this.serial(async () => {
      const pending = await this.read();
      for (const reason of DROP_REASONS) pending[reason] = subtract(pending[reason], normalize(report.sent[reason]));
      await this.write(pending);
    });
  }

  /** The numbers waiting to be reported (for inspection and tests). */
  pending(): Promise<PendingDrops> {
    return this.serial(() => this.read());
  }

  private serial<T>(step: () => Promise<T>): Promise<T> {
    const run = this.tail.then(step);
    this.tail = run.catch(() => undefined);
    return run;
  }

  private async read(): Promise<PendingDrops> {
    const text = await this.kv.get(TOMBSTONES_KEY);
    const pending = noDrops();
    if (text === undefined) return pending;
    try {
      const parsed = JSON.parse(text) as Partial<Record<DropReason, unknown>>;
      for (const reason of DROP_REASONS) pending[reason] = normalize(validRanges(parsed[reason]));
    } catch {
      // A value this SDK did not write: start over rather than fail every upload.
    }
    return pending;
  }

  private async write(pending: PendingDrops): Promise<void> {
    if (DROP_REASONS.every((reason) => pending[reason].length === 0)) await this.kv.delete(TOMBSTONES_KEY);
    else await this.kv.set(TOMBSTONES_KEY, JSON.stringify(pending));
  }
}

const isSequence = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 1;

function validRanges(value: unknown): Range[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (r): r is Range => Array.isArray(r) && r.length === 2 && isSequence(r[0]) && isSequence(r[1]) && r[0] <= r[1],
  );
}
