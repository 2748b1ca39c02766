import { WaypostError, type Location, type WaypostErrorCode } from '@waypost/sdk/internal';

/**
 * The tabs of one database talk over a BroadcastChannel: "records were queued" (so the leading tab
 * uploads what another tab recorded) and sync() of a tab that does not lead, run by the leader.
 */
type Message =
  | { type: 'queued' }
  | { type: 'sync'; id: string }
  | { type: 'sync-accepted'; id: string }
  | { type: 'synced'; id: string; records?: Location[]; error?: { code?: string; message: string } };

/**
 * Notices are sent at most this often: a BroadcastChannel message crosses processes, and one per
 * record showed as a third of the enqueue cost. The leader sees another tab's records this late.
 */
export const QUEUE_NOTICE_DELAY_MS = 100;
/** A forwarded sync() that no leader accepts within this runs in the calling tab instead. */
export const SYNC_ACCEPT_TIMEOUT_MS = 2_000;
/** A bound on waiting for the leader's answer (a leader closed mid-sync never answers). */
export const FORWARDED_SYNC_MAX_MS = 10 * 60 * 1000;

export interface TabChannel {
  /** Tells the other tabs that records were queued; one message per burst of inserts. */
  notifyQueued(): void;
  /** Called when another tab queued records. */
  onQueued: (() => void) | null;
  /** Answers other tabs' sync requests: returns null when this tab does not lead. */
  serveSync: (() => Promise<Location[]> | null) | null;
  /** Has the leading tab sync; resolves null when no tab answered (the caller syncs itself). */
  requestSync(): Promise<Location[] | null>;
  close(): void;
}

export function createTabChannel(database: string): TabChannel | null {
  if (typeof BroadcastChannel !== 'function') return null;
  const channel = new BroadcastChannel(`waypost:${database}`);
  const post = (message: Message) => channel.postMessage(message);
  const waiting = new Map<string, (message: Message | null) => void>();
  let noticePending = false;

  const tab: TabChannel = {
    notifyQueued() {
      if (noticePending) return;
      noticePending = true;
      setTimeout(() => {
        noticePending = false;
        post({ type: 'queued' });
      }, QUEUE_NOTICE_DELAY_MS);
    },
    onQueued: null,
    serveSync: null,
    requestSync() {
      const id = globalThis.crypto.randomUUID();
      return new Promise((resolve, reject) => {
        let timer = setTimeout(() => settle(null), SYNC_ACCEPT_TIMEOUT_MS);
        const settle = (message: Message | null) => {
          if (message?.type === 'sync-accepted') {
            clearTimeout(timer);
            timer = setTimeout(() => settle(null), FORWARDED_SYNC_MAX_MS);
            return;
          }
          clearTimeout(timer);
          waiting.delete(id);
          if (message?.type !== 'synced') return resolve(null);
          if (!message.error) return resolve(message.records ?? []);
          const { code, message: text } = message.error;
          reject(code ? new WaypostError(code as WaypostErrorCode, text) : new Error(text));
        };
        waiting.set(id, settle);
        post({ type: 'sync', id });
      });
    },
    close() {
      for (const settle of [...waiting.values()]) settle(null);
      channel.close();
    },
  };

  channel.onmessage = ({ data }: MessageEvent<Message>) => {
    if (data.type === 'queued') return tab.onQueued?.();
    if (data.type !== 'sync') return waiting.get(data.id)?.(data);
    const run = tab.serveSync?.();
    if (!run) return;
    post({ type: 'sync-accepted', id: data.id });
    run.then(
      (records) => post({ type: 'synced', id: data.id, records }),
      (error: Error & { code?: string }) =>
        post({ type: 'synced', id: data.id, error: { code: error.code, message: error.message } }),
    );
  };
  return tab;
}
