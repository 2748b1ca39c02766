import type { Store } from '@waypost/sdk';
import type { UploadLeadership } from './upload-leadership.js';

/**
 * The shared queue as one tab sees it: records are written by every tab, but only the leading tab
 * takes them for upload, and only the leader may release upload locks (a tab opening beside a
 * leader mid-upload must not free the leader's batch). `onInsert` tells the leader there is work.
 */
export function leaderOnlyUploads(
  store: Store,
  leadership: () => UploadLeadership | undefined,
  onInsert: () => void,
): Store {
  const queue = store.locations;
  const leads = () => leadership()?.isLeader === true;
  return {
    ...store,
    locations: {
      ...queue,
      insert: async (record) => {
        const id = await queue.insert(record);
        onInsert();
        return id;
      },
      lockNext: async (limit, order) => (leads() ? queue.lockNext(limit, order) : []),
      unlockAll: async () => (leads() ? queue.unlockAll() : 0),
    },
  };
}
