/**
 * An inclusive range of sequence numbers, [first, last]: the shape of ledger/ranges.ts' Range, spelled
 * here because ports sit below every other layer (test/layers.test.ts).
 */
type Range = readonly [number, number];

/**
 * The archive of delivered records (issue 46): records a server answered 2xx with a verified
 * receipt leave the queue (spec 3: delivered) but are kept here for a window, never uploaded again
 * unless that server asks for them (a repair after it lost them). Optional in a Store: a store
 * without one deletes delivered records as before.
 */
export interface ArchiveEntry {
  /** The upload URL that receipted the records: only it may ask for them again. */
  url: string;
  /** The receipt as the server sent it (its proof). */
  receipt: string;
  /** The numbering the sequences belong to (null: records numbered before epochs). */
  epoch: string | null;
  /** The sequence numbers it covers, normalized. */
  ranges: Range[];
  /** When it was kept (epoch ms, the device's clock). */
  at: number;
}

export interface ArchivedRecord {
  uuid: string;
  json: string;
  sequence: number;
  epoch: string | null;
  url: string;
  archivedAt: number;
}

export interface ReceiptArchive {
  /**
   * Moves these queued records (each with its sequence) out of the queue into the archive, with
   * `entry`, in one transaction; answers how many moved (a record already gone is skipped).
   */
  keep(records: readonly { id: number; sequence: number }[], entry: ArchiveEntry): Promise<number>;
  /** Archived records of `url`'s numbering `epoch` whose sequence is in `ranges`, ascending, at most `limit`. */
  find(query: {
    url: string;
    epoch: string | null;
    ranges: readonly Range[];
    limit: number;
  }): Promise<ArchivedRecord[]>;
  /** The receipts kept, oldest first. */
  receipts(): Promise<ArchiveEntry[]>;
  /**
   * The window: removes archived records and receipts kept before `olderThan`, then the oldest
   * records while the archive holds more than `maxBytes` of JSON; answers how many records went.
   */
  prune(rules: { olderThan: number; maxBytes: number }): Promise<number>;
  /** Records and JSON bytes held. */
  size(): Promise<{ records: number; bytes: number }>;
}
