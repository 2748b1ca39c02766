import { EPOCH_KEY, nextNumber, SEQUENCE_KEY, type NewRecord } from '@waypost/sdk/internal';
import type { Durability } from './location-queue.js';

/**
 * The delivery ledger's numbering on IndexedDB (issue 43). The counter is the larger of two things:
 * kv SEQUENCE_KEY and the number of the last numbered row in `locations` (rows are numbered in id
 * order). A numbered insert only adds its row; the kv counter is brought up to date by whatever
 * deletes rows (keepCounter, in the deleting transaction), so the counter never goes back. Writing
 * kv on every insert cost about a quarter of the enqueue rate, reading it another half.
 */

type Make = (sequence: number, epoch: string | null) => NewRecord;

/** What this connection numbered last: the record's id, its number and the numbering's epoch. */
interface Numbered {
  id: number;
  sequence: number;
  epoch: string | null;
}

export interface NumberedInsert {
  /** LocationQueueStore.insertNumbered: the record `make` renders for the next number, in one transaction. */
  insert(make: Make, makeEpoch?: () => string): Promise<number>;
  /** The counter or epoch was written by something else than insert(): read them again next time. */
  forget(): void;
}

const result = <T>(request: IDBRequest<T>) =>
  new Promise<T>((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });

/** The number of the last numbered row (unnumbered ones, from insert() or older SDKs, are skipped). */
function lastRowNumber(locations: IDBObjectStore): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    const request = locations.openCursor(null, 'prev');
    request.onsuccess = () => {
      const cursor = request.result;
      if (!cursor) return resolve(undefined);
      const sequence = (cursor.value as { sequence?: unknown }).sequence;
      if (typeof sequence === 'number') return resolve(sequence);
      cursor.continue();
    };
    request.onerror = () => reject(request.error);
  });
}

/** The counter as kv would hold it (a text; undefined before the first number), and kv's own value. */
async function readCounter(tx: IDBTransaction): Promise<{ counter: string | undefined; stored: string | undefined }> {
  // Both reads at once (their answers are awaited only as promises made before either arrives).
  const stored = result(tx.objectStore('kv').get(SEQUENCE_KEY) as IDBRequest<string | undefined>);
  const row = await lastRowNumber(tx.objectStore('locations'));
  const kept = await stored;
  if (row === undefined || (kept !== undefined && Number(kept) >= row)) return { counter: kept, stored: kept };
  return { counter: String(row), stored: kept };
}

/**
 * Brings kv's counter up to the last numbered row, inside a transaction (over `locations` and
 * `kv`) that is about to delete rows: their numbers stay counted once they are gone.
 */
export async function keepCounter(tx: IDBTransaction): Promise<void> {
  const { counter, stored } = await readCounter(tx);
  if (counter !== undefined && counter !== stored) tx.objectStore('kv').put(counter, SEQUENCE_KEY);
}

/** The counter's current value (the kv port's answer for SEQUENCE_KEY). */
export async function currentCounter(db: IDBDatabase): Promise<string | undefined> {
  return (await readCounter(db.transaction(['locations', 'kv'], 'readonly'))).counter;
}

/**
 * Numbered inserts without a read or a kv write per record. The connection remembers what it
 * numbered last and adds the next row with the next number, then checks the id the row got:
 * `locations` ids come from one key generator shared by every tab and worker of the origin (never
 * reused, not reset by clear(), rolled back with an aborted transaction), and every numbered insert
 * adds a row, so the id right after ours means no other insert came between and the number is the
 * next one. Any other id aborts the transaction (nothing of it is kept) and the insert is done again
 * reading the counter, as the first insert of a connection does. An unnumbered insert between only
 * costs that read. The epoch is written only where a numbering starts; this store's kv port calls
 * forget() when the counter or epoch is written through it.
 */
export function createNumberedInsert(db: IDBDatabase, durability: Durability): NumberedInsert {
  let last: Numbered | null = null;
  return {
    async insert(make, makeEpoch) {
      const known = last;
      last = null; // an insert that fails leaves nothing to trust
      const numbered =
        (known && (await insertNext(db, durability, known, make))) ??
        (await insertReading(db, durability, make, makeEpoch));
      last = numbered;
      return numbered.sequence;
    },
    forget() {
      last = null;
    },
  };
}

const rowOf = (record: NewRecord, sequence: number) => ({
  uuid: record.uuid,
  createdAt: record.createdAt,
  json: record.json,
  sequence,
});

/** The row numbered after `known`; null (and nothing kept) when another insert came between. */
function insertNext(db: IDBDatabase, durability: Durability, known: Numbered, make: Make): Promise<Numbered | null> {
  return new Promise((resolve, reject) => {
    const sequence = known.sequence + 1;
    const record = make(sequence, known.epoch);
    // The same unit of work as a bare add: one store, one request, one transaction.
    const tx = db.transaction('locations', 'readwrite', { durability });
    let id = 0;
    let overtaken = false;
    const add = tx.objectStore('locations').add(rowOf(record, sequence));
    add.onsuccess = () => {
      id = add.result as number;
      if (id === known.id + 1) return;
      overtaken = true;
      tx.abort();
    };
    tx.oncomplete = () => resolve({ id, sequence, epoch: known.epoch });
    tx.onabort = () => (overtaken ? resolve(null) : reject(tx.error ?? new Error('The insert was aborted.')));
  });
}

/** The insert reading the counter and epoch in its transaction; it also brings kv's counter up to date. */
function insertReading(
  db: IDBDatabase,
  durability: Durability,
  make: Make,
  makeEpoch?: () => string,
): Promise<Numbered> {
  const tx = db.transaction(['locations', 'kv'], 'readwrite', { durability });
  const done = new Promise<void>((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onabort = () => reject(tx.error ?? new Error('The insert was aborted.'));
  });
  void done.catch(() => undefined); // awaited below; a failed request also rejects insert()
  const insert = async (): Promise<Numbered> => {
    const kv = tx.objectStore('kv');
    const storedEpoch = result(kv.get(EPOCH_KEY) as IDBRequest<string | undefined>);
    const { counter } = await readCounter(tx);
    const step = nextNumber(counter, await storedEpoch, makeEpoch);
    const record = make(step.sequence, step.epoch);
    if (step.newEpoch !== null) kv.put(step.newEpoch, EPOCH_KEY);
    kv.put(String(step.sequence), SEQUENCE_KEY);
    const id = (await result(tx.objectStore('locations').add(rowOf(record, step.sequence)))) as number;
    return { id, sequence: step.sequence, epoch: step.epoch };
  };
  return insert().then(
    async (numbered) => (await done, numbered),
    async (error: unknown) => {
      // make() threw (or a request failed): nothing of the transaction is kept.
      try {
        tx.abort();
      } catch {
        // already aborted by the failed request
      }
      await done.catch(() => undefined);
      throw error;
    },
  );
}
