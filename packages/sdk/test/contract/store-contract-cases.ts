import type { RecordQuery, Store } from '../../src/index.js';

/**
 * The store contract, framework-free: every store (memory, SQLite, IndexedDB in Chromium) must pass
 * these cases. Vitest runs them in Node (packages/node/test/store-contract.test.ts) and an in-page
 * runner runs them in Chromium (packages/browser/test/store-contract.test.ts). A case opens a fresh
 * store with `open` and throws on the first broken expectation.
 */
export interface ContractCase {
  name: string;
  run(open: () => Promise<Store>): Promise<void>;
}

/** Structural equality of JSON-like values (what stores return). */
function equal(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const kb = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => equal((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

export function same(actual: unknown, expected: unknown, what: string): void {
  if (!equal(actual, expected)) {
    throw new Error(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
  }
}

const rec = (i: number, createdAt = 1_000 + i) => ({ uuid: `u${i}`, createdAt, json: JSON.stringify({ i }) });

async function fill(store: Store, n: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) ids.push(await store.locations.insert(rec(i)));
  return ids;
}

const uuidsOf = async (store: Store, query: RecordQuery = { order: 'ASC' }) =>
  (await store.locations.list(query)).map((r) => r.uuid);

/** Opens a store, runs the body, and closes the store whatever happens. */
const withStore = (body: (store: Store) => Promise<void>) => async (open: () => Promise<Store>) => {
  const store = await open();
  try {
    await body(store);
  } finally {
    await store.close();
  }
};

/** What removing `count` records stored without a number answers. */
const none = (count: number) => ({ count, sequences: [] });

export const STORE_CONTRACT: readonly ContractCase[] = [
  {
    // The ledger's tombstones (issue 19): a record removed undelivered is reported by its number.
    name: 'prune, removeByUuid and removeAll answer the sequence numbers of what they removed',
    run: withStore(async (store) => {
      const numbered = (uuid: string, createdAt: number) =>
        store.locations.insertNumbered(() => ({ uuid, createdAt, json: JSON.stringify({ uuid }) }));
      for (let i = 1; i <= 6; i++) await numbered(`n${i}`, 1_000 + i);
      await store.locations.insert(rec(7)); // unnumbered: counted, no number
      same(await store.locations.prune({ olderThan: 1_003 }), { count: 2, sequences: [1, 2] }, 'age');
      same(await store.locations.prune({ maxRecords: 4 }), { count: 1, sequences: [3] }, 'cap');
      same(await store.locations.removeByUuid('n5'), { count: 1, sequences: [5] }, 'one destroyed');
      const all = await store.locations.removeAll();
      same(
        { count: all.count, sequences: [...all.sequences].sort((a, b) => a - b) },
        { count: 3, sequences: [4, 6] },
        'all',
      );
    }),
  },
  {
    // Issue 19, "a drop is a drop": a record in flight is never reported dropped and then delivered.
    name: 'prune (age and cap) never takes a record locked for an upload',
    run: withStore(async (store) => {
      await fill(store, 4); // createdAt 1000, 1001, ... (u0 the oldest)
      await store.locations.lockNext(2, 'ASC'); // u0 and u1 are being uploaded
      same(await store.locations.prune({ olderThan: 10_000 }), none(2), 'age: only the unlocked two');
      same(await uuidsOf(store), ['u0', 'u1'], 'the locked ones stay');
      for (const i of [10, 11, 12]) await store.locations.insert(rec(i));
      same(await store.locations.prune({ maxRecords: 1 }), none(3), 'cap: only the unlocked ones');
      same(await uuidsOf(store), ['u0', 'u1'], 'the locked ones stay, over the cap');
    }),
  },
  {
    // The delivery ledger's per-store numbering (issue 19).
    name: 'insertNumbered numbers records 1, 2, 3 in the insert, and removeAll never resets the count',
    run: withStore(async (store) => {
      const numbered = (uuid: string) =>
        store.locations.insertNumbered((sequence) => ({
          uuid,
          createdAt: 1_000,
          json: JSON.stringify({ uuid, sequence }),
        }));
      same([await numbered('n1'), await numbered('n2')], [1, 2], 'first numbers');
      const rows = await store.locations.list({ order: 'ASC' });
      same(
        rows.map((r) => JSON.parse(r.json).sequence),
        [1, 2],
        'each record rendered with its number',
      );
      await store.locations.removeAll();
      same(await numbered('n3'), 3, 'after removeAll');
      same(await store.kv.get('records.sequence'), '3', 'kept in the kv store');
    }),
  },
  {
    // The numbering's epoch (issue 39): made when the numbering starts, kept with the counter.
    name: 'insertNumbered keeps the epoch made at number 1; a counter older than epochs gets none',
    run: withStore(async (store) => {
      const made: string[] = [];
      const makeEpoch = () => {
        made.push(`epoch-${made.length + 1}`);
        return made.at(-1)!;
      };
      const epochs: (string | null)[] = [];
      const numbered = (uuid: string) =>
        store.locations.insertNumbered((sequence, epoch) => {
          epochs.push(epoch);
          return { uuid, createdAt: 1_000, json: JSON.stringify({ uuid, sequence }) };
        }, makeEpoch);
      same([await numbered('e1'), await numbered('e2')], [1, 2], 'numbers');
      same(epochs, ['epoch-1', 'epoch-1'], 'both records in the epoch made at number 1');
      same(made.length, 1, 'made once');
      same(await store.kv.get('records.epoch'), 'epoch-1', 'kept in the kv store');
      await store.locations.removeAll();
      await numbered('e3');
      same(epochs.at(-1), 'epoch-1', 'removeAll keeps the numbering and its epoch');
      // A store whose counter predates epochs (an SDK upgraded in place) keeps numbering without one.
      await store.kv.delete('records.epoch');
      await numbered('e4');
      same(epochs.at(-1), null, 'no epoch for a numbering that began without one');
      same(made.length, 1, 'none made mid-numbering');
    }),
  },
  {
    name: 'insert returns increasing ids; count counts',
    run: withStore(async (store) => {
      const ids = await fill(store, 3);
      same(ids[1]! > ids[0]! && ids[2]! > ids[1]!, true, 'ids increase');
      same(await store.locations.count(), 3, 'count');
    }),
  },
  {
    name: 'list pages in ASC and DESC order with limit and offset',
    run: withStore(async (store) => {
      await fill(store, 5);
      same(await uuidsOf(store), ['u0', 'u1', 'u2', 'u3', 'u4'], 'ASC');
      same(await uuidsOf(store, { order: 'DESC' }), ['u4', 'u3', 'u2', 'u1', 'u0'], 'DESC');
      same(await uuidsOf(store, { order: 'ASC', limit: 2 }), ['u0', 'u1'], 'limit');
      same(await uuidsOf(store, { order: 'ASC', limit: 2, offset: 2 }), ['u2', 'u3'], 'limit+offset');
      same(await uuidsOf(store, { order: 'DESC', limit: 2, offset: 4 }), ['u0'], 'DESC offset');
      same(await uuidsOf(store, { order: 'ASC', limit: -1, offset: 3 }), ['u3', 'u4'], 'limit -1');
      same(await uuidsOf(store, { order: 'ASC', limit: 0 }), [], 'limit 0');
      const [first] = await store.locations.list({ order: 'ASC', limit: 1 });
      same(typeof first?.id, 'number', 'id is a number');
      same({ ...first, id: 0 }, { id: 0, uuid: 'u0', createdAt: 1_000, json: '{"i":0}', locked: false }, 'row');
    }),
  },
  {
    name: 'lockNext takes unlocked records in order, marks them locked, and skips locked ones',
    run: withStore(async (store) => {
      await fill(store, 5);
      const a = await store.locations.lockNext(2, 'ASC');
      same(
        a.map((r) => [r.uuid, r.locked]),
        [
          ['u0', true],
          ['u1', true],
        ],
        'first batch',
      );
      same(
        (await store.locations.lockNext(2, 'DESC')).map((r) => r.uuid),
        ['u4', 'u3'],
        'DESC batch',
      );
      same(
        (await store.locations.lockNext(10, 'ASC')).map((r) => r.uuid),
        ['u2'],
        'the rest',
      );
      same(await store.locations.lockNext(10, 'ASC'), [], 'nothing left');
      same(
        (await store.locations.list({ order: 'ASC' })).every((r) => r.locked),
        true,
        'all locked',
      );
    }),
  },
  {
    // What batchSync with maxBatchSize -1 (the default) asks for: every record, however many.
    name: 'lockNext with an unbounded limit (Number.MAX_SAFE_INTEGER) takes every unlocked record',
    run: withStore(async (store) => {
      await fill(store, 3);
      same(
        (await store.locations.lockNext(Number.MAX_SAFE_INTEGER, 'ASC')).map((r) => r.uuid),
        ['u0', 'u1', 'u2'],
        'ASC',
      );
      await store.locations.unlockAll();
      same(
        (await store.locations.lockNext(Number.MAX_SAFE_INTEGER, 'DESC')).map((r) => r.uuid),
        ['u2', 'u1', 'u0'],
        'DESC',
      );
    }),
  },
  {
    name: 'concurrent lockNext calls never hand out the same record',
    run: withStore(async (store) => {
      await fill(store, 20);
      const batches = await Promise.all(Array.from({ length: 8 }, () => store.locations.lockNext(3, 'ASC')));
      const taken = batches.flat().map((r) => r.uuid);
      same(new Set(taken).size, taken.length, 'no record twice');
      same(taken.length, 20, 'every record taken');
      for (const batch of batches) {
        const ids = batch.map((r) => r.id);
        same(
          ids,
          [...ids].sort((x, y) => x - y),
          'a batch is in order',
        );
      }
    }),
  },
  {
    name: 'remove deletes exactly the given ids and counts the ones that existed',
    run: withStore(async (store) => {
      const ids = await fill(store, 4);
      same(await store.locations.remove([ids[1]!, ids[3]!, 999_999]), 2, 'removed');
      same(await uuidsOf(store), ['u0', 'u2'], 'left');
      same(await store.locations.remove([]), 0, 'empty list');
      same(await store.locations.remove([ids[0]!, ids[1]!]), 1, 'a range with a gap');
      same(await uuidsOf(store), ['u2'], 'left after the range');
    }),
  },
  {
    name: 'unlock releases the given ids; unlockAll releases every lock and counts them',
    run: withStore(async (store) => {
      await fill(store, 4);
      const locked = await store.locations.lockNext(3, 'ASC');
      await store.locations.unlock([locked[1]!.id]);
      same(
        (await store.locations.lockNext(10, 'ASC')).map((r) => r.uuid),
        ['u1', 'u3'],
        'relocked',
      );
      same(await store.locations.unlockAll(), 4, 'released');
      same(await store.locations.unlockAll(), 0, 'nothing held');
      same(
        (await store.locations.list({ order: 'ASC' })).some((r) => r.locked),
        false,
        'none locked',
      );
    }),
  },
  {
    name: 'removeAll and removeByUuid',
    run: withStore(async (store) => {
      await fill(store, 3);
      same(await store.locations.removeByUuid('u1'), none(1), 'removed u1');
      same(await store.locations.removeByUuid('u1'), none(0), 'u1 again');
      same(await store.locations.removeByUuid('nope'), none(0), 'unknown');
      same(await store.locations.count(), 2, 'count');
      await store.locations.lockNext(1, 'ASC');
      same(await store.locations.removeAll(), none(2), 'removeAll');
      same(await store.locations.count(), 0, 'empty');
    }),
  },
  {
    name: 'prune by age removes records created strictly before olderThan',
    run: withStore(async (store) => {
      await fill(store, 5); // createdAt 1000..1004
      same(await store.locations.prune({ olderThan: 1_002 }), none(2), 'pruned');
      same(await uuidsOf(store), ['u2', 'u3', 'u4'], 'left');
    }),
  },
  {
    name: 'prune by cap drops the oldest; cap 0 drops all; age and cap combine',
    run: withStore(async (store) => {
      await fill(store, 6);
      same(await store.locations.prune({ maxRecords: 4 }), none(2), 'cap 4');
      same(await uuidsOf(store), ['u2', 'u3', 'u4', 'u5'], 'left after cap');
      same(await store.locations.prune({ maxRecords: 10 }), none(0), 'under the cap');
      same(await store.locations.prune({ olderThan: 1_003, maxRecords: 2 }), none(2), 'age and cap');
      same(await uuidsOf(store), ['u4', 'u5'], 'left after both');
      same(await store.locations.prune({ maxRecords: 0 }), none(2), 'cap 0');
      same(await store.locations.count(), 0, 'empty');
    }),
  },
  {
    name: 'log: append, read oldest first (since, limit = the last N), clear, prune',
    run: withStore(async (store) => {
      const entries = [1, 2, 3, 4].map((t) => ({ timestamp: t * 100, level: 3, tag: 'T', message: `m${t}` }));
      await store.log.append(entries.slice(0, 2));
      await store.log.append(entries.slice(2));
      const messages = async (q?: Parameters<Store['log']['read']>[0]) =>
        (await store.log.read(q)).map((e) => e.message);
      same(await store.log.read(), entries, 'all');
      same(await messages({ since: 300 }), ['m3', 'm4'], 'since');
      same(await messages({ limit: 2 }), ['m3', 'm4'], 'limit');
      same(await store.log.read({ limit: 0 }), [], 'limit 0');
      same(await store.log.read({ limit: -1 }), entries, 'limit -1');
      // The anchor's SQLQuery: start/end inclusive, ASC from the oldest, DESC from the newest.
      same(await messages({ start: 200, end: 300 }), ['m2', 'm3'], 'start/end');
      same(await messages({ order: 'ASC', limit: 2 }), ['m1', 'm2'], 'ASC limit');
      same(await messages({ order: 'DESC', limit: 2 }), ['m4', 'm3'], 'DESC limit');
      same(await messages({ order: 'DESC', limit: 2, offset: 1 }), ['m3', 'm2'], 'DESC offset');
      same(await messages({ order: 'ASC', start: 200, offset: 1 }), ['m3', 'm4'], 'ASC start offset');
      same(await messages({ limit: 2, offset: 1 }), ['m2', 'm3'], 'tail offset');
      same(await store.log.prune(250), 2, 'prune');
      same(await messages(), ['m3', 'm4'], 'after prune');
      await store.log.clear();
      same(await store.log.read(), [], 'cleared');
    }),
  },
  {
    name: 'kv: get, set (overwrite), delete',
    run: withStore(async (store) => {
      same(await store.kv.get('k'), undefined, 'missing');
      await store.kv.set('k', 'v1');
      await store.kv.set('k', 'v2');
      same(await store.kv.get('k'), 'v2', 'overwritten');
      await store.kv.delete('k');
      same(await store.kv.get('k'), undefined, 'deleted');
    }),
  },
  {
    name: 'geofences: upsert, all, remove, removeAll',
    run: withStore(async (store) => {
      await store.geofences.upsert([
        { identifier: 'home', json: '{"r":1}' },
        { identifier: 'work', json: '{"r":2}' },
      ]);
      await store.geofences.upsert([{ identifier: 'home', json: '{"r":3}' }]);
      const all = await store.geofences.all();
      same(
        [...all].sort((a, b) => a.identifier.localeCompare(b.identifier)),
        [
          { identifier: 'home', json: '{"r":3}' },
          { identifier: 'work', json: '{"r":2}' },
        ],
        'all',
      );
      same(await store.geofences.remove(['home', 'nope']), 1, 'remove');
      same(await store.geofences.removeAll(), 1, 'removeAll');
      same(await store.geofences.all(), [], 'empty');
    }),
  },
];
