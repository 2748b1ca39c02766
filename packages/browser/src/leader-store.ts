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

export interface QueueNotices {
  /** Tells the other tabs that records were queued; one message per burst of inserts. */
  notify(): void;
  /** Called when another tab queued records. */
  onNotice: (() => void) | null;
  close(): void;
}

/**
 * Notices are sent at most this often: a BroadcastChannel message crosses processes, and one per
 * record showed as a third of the enqueue cost. The leader sees another tab's records this late.
 */
export const QUEUE_NOTICE_DELAY_MS = 100;

/** "Records were queued" between the tabs of one database, over a BroadcastChannel where there is one. */
export function createQueueNotices(database: string): QueueNotices {
  const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(`waypost:${database}`) : null;
  let pending = false;
  const notices: QueueNotices = {
    notify() {
      if (pending || !channel) return;
      pending = true;
      setTimeout(() => {
        pending = false;
        channel.postMessage('queued');
      }, QUEUE_NOTICE_DELAY_MS);
    },
    onNotice: null,
    close: () => channel?.close(),
  };
  if (channel) channel.onmessage = () => notices.onNotice?.();
  return notices;
}
