import type { ReceiptArchive } from './archive.js';

/**
 * The persistence port. Each method is one atomic operation, so that an adapter backed by a real
 * database can run it in one transaction (lockNext selects and locks in the same transaction,
 * which is what makes "one upload per record at a time" hold across processes).
 */
export type OrderDirection = 'ASC' | 'DESC';

export interface NewRecord {
  uuid: string;
  /** Milliseconds since the epoch at which the record was stored; used for retention. */
  createdAt: number;
  /** The rendered JSON text, exactly what will be uploaded. */
  json: string;
}

export interface StoredRecord extends NewRecord {
  /** Insertion order; the queue's order is by id. */
  id: number;
  locked: boolean;
}

export interface RecordQuery {
  limit?: number;
  offset?: number;
  order: OrderDirection;
}

/** The kv key of the per-store record sequence counter (the delivery ledger, issue 19). */
export const SEQUENCE_KEY = 'records.sequence';

/**
 * Records that left the queue without delivery (retention, destroy): how many, and the sequence
 * numbers they carried, for the delivery ledger's tombstones (records stored by insert(), or before
 * numbering existed, carry none).
 */
export interface RemovedRecords {
  count: number;
  sequences: number[];
}

export interface LocationQueueStore {
  insert(record: NewRecord): Promise<number>;
  /**
   * Inserts the record `make` renders for the next sequence number, and returns that number. The
   * counter (kv SEQUENCE_KEY) starts at 1, is written in the same transaction as the record, and
   * never goes back: not after a restart, a crash, removeAll() or a reset of the configuration.
   * `make` is synchronous (it runs inside the transaction). The store keeps the number beside the
   * record, to report it when the record is removed undelivered (RemovedRecords).
   * When the counter is absent (the numbering starts), the store calls `makeEpoch` and keeps its
   * value (kv EPOCH_KEY) in the same transaction; `make` gets the numbering's epoch, or null for a
   * numbering older than epochs (ledger/epoch.ts nextNumber decides both).
   */
  insertNumbered(
    make: (sequence: number, epoch: string | null) => NewRecord,
    makeEpoch?: () => string,
  ): Promise<number>;
  count(): Promise<number>;
  list(query: RecordQuery): Promise<StoredRecord[]>;
  /** Atomically selects up to `limit` unlocked records in `order` and marks them locked. */
  lockNext(limit: number, order: OrderDirection): Promise<StoredRecord[]>;
  /** Deletes exactly these records; returns how many existed. */
  remove(ids: readonly number[]): Promise<number>;
  unlock(ids: readonly number[]): Promise<void>;
  /** Releases every lock (locks left by a crash); returns how many were held. */
  unlockAll(): Promise<number>;
  removeAll(): Promise<RemovedRecords>;
  removeByUuid(uuid: string): Promise<RemovedRecords>;
  /** Retention: removes records created before `olderThan`, then the oldest beyond `maxRecords`. */
  prune(rules: { olderThan?: number; maxRecords?: number }): Promise<RemovedRecords>;
}

export interface LogEntry {
  timestamp: number;
  level: number;
  tag: string;
  message: string;
}

/**
 * A log read. Without `order`, the newest `limit` entries (after skipping `offset` newest) in
 * oldest-first order: the tail. With `order`, the anchor's meaning: ASC takes from the oldest,
 * DESC from the newest, each in its own order. Times are epoch ms, both ends inclusive.
 */
export interface LogQuery {
  /** The same as `start` (Waypost's older name). */
  since?: number;
  start?: number;
  end?: number;
  limit?: number;
  offset?: number;
  order?: OrderDirection;
}

export interface LogStore {
  append(entries: readonly LogEntry[]): Promise<void>;
  read(query?: LogQuery): Promise<LogEntry[]>;
  clear(): Promise<void>;
  prune(olderThan: number): Promise<number>;
}

export interface KeyValueStore {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
}

export interface GeofenceRow {
  identifier: string;
  json: string;
}

export interface GeofenceStore {
  upsert(rows: readonly GeofenceRow[]): Promise<void>;
  all(): Promise<GeofenceRow[]>;
  remove(identifiers: readonly string[]): Promise<number>;
  removeAll(): Promise<number>;
}

export interface Store {
  readonly locations: LocationQueueStore;
  /** Delivered records kept with their receipt (issue 46); without one, delivered records are deleted. */
  readonly archive?: ReceiptArchive;
  readonly log: LogStore;
  readonly kv: KeyValueStore;
  readonly geofences: GeofenceStore;
  close(): Promise<void>;
}
