import type { ArchiveEntry, Store } from '../../src/index.js';
import { same, type ContractCase } from './store-contract-cases.js';

/**
 * The receipt archive's contract (issue 46), for every store that has one (memory, SQLite): a
 * receipted record leaves the queue for the archive in one step, is found again only by the URL
 * and numbering that receipted it, and the window drops the oldest first, by age and by bytes.
 */
const json = (i: number) => JSON.stringify({ i, pad: 'x'.repeat(84) }); // 100 bytes each
const entry = (at: number, ranges: [number, number][], url = 'https://a.example/locations'): ArchiveEntry => ({
  url,
  receipt: `receipt-${at}`,
  epoch: 'e1',
  ranges,
  at,
});

async function queued(store: Store, n: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 1; i <= n; i++) ids.push(await store.locations.insert({ uuid: `u${i}`, createdAt: i, json: json(i) }));
  await store.locations.lockNext(n, 'ASC');
  return ids;
}

const archiveOf = (store: Store) => {
  if (!store.archive) throw new Error('this store has no archive');
  return store.archive;
};

export const ARCHIVE_CONTRACT: ContractCase[] = [
  {
    name: 'keep moves the records out of the queue, locks and all, into the archive',
    async run(open) {
      const store = await open();
      const ids = await queued(store, 3);
      const moved = await archiveOf(store).keep(
        ids.slice(0, 2).map((id, i) => ({ id, sequence: i + 1 })),
        entry(10, [[1, 2]]),
      );
      same(moved, 2, 'moved');
      same(
        (await store.locations.list({ order: 'ASC' })).map((r) => r.uuid),
        ['u3'],
        'queue after keep',
      );
      same(await archiveOf(store).size(), { records: 2, bytes: 200 }, 'size');
      same(
        (await archiveOf(store).receipts()).map((e) => e.receipt),
        ['receipt-10'],
        'receipts',
      );
    },
  },
  {
    name: 'find answers only the URL and numbering that receipted, in sequence order, within ranges and limit',
    async run(open) {
      const store = await open();
      const ids = await queued(store, 4);
      await archiveOf(store).keep(
        [
          { id: ids[1]!, sequence: 2 },
          { id: ids[0]!, sequence: 1 },
        ],
        entry(10, [[1, 2]]),
      );
      await archiveOf(store).keep([{ id: ids[2]!, sequence: 3 }], entry(11, [[3, 3]], 'https://b.example/locations'));
      const a = 'https://a.example/locations';
      const found = await archiveOf(store).find({ url: a, epoch: 'e1', ranges: [[1, 3]], limit: 10 });
      same(
        found.map((r) => [r.uuid, r.sequence]),
        [
          ['u1', 1],
          ['u2', 2],
        ],
        'found for a',
      );
      same(
        (await archiveOf(store).find({ url: a, epoch: 'e2', ranges: [[1, 3]], limit: 10 })).length,
        0,
        'other epoch',
      );
      same((await archiveOf(store).find({ url: a, epoch: 'e1', ranges: [[1, 3]], limit: 1 })).length, 1, 'limit');
    },
  },
  {
    name: 'prune drops what is older than the window, then the oldest beyond the byte cap, receipts with them',
    async run(open) {
      const store = await open();
      const ids = await queued(store, 4);
      for (let i = 0; i < 4; i++)
        await archiveOf(store).keep([{ id: ids[i]!, sequence: i + 1 }], entry(10 + i, [[i + 1, i + 1]]));
      same(await archiveOf(store).prune({ olderThan: 11, maxBytes: 1_000 }), 1, 'pruned by age');
      same(await archiveOf(store).prune({ olderThan: 11, maxBytes: 200 }), 1, 'pruned by bytes');
      same(await archiveOf(store).size(), { records: 2, bytes: 200 }, 'size after');
      same(
        (await archiveOf(store).receipts()).map((e) => e.at),
        [12, 13],
        'receipts left',
      );
      same(await archiveOf(store).prune({ olderThan: 11, maxBytes: 200 }), 0, 'nothing more');
    },
  },
];
