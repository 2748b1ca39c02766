import { WaypostError, type Location, type WaypostErrorCode } from '@waypost/sdk/internal';

/**
 * The tabs of one database talk over a BroadcastChannel: "records were queued" (so the leading tab
 * uploads what another tab recorded) and sync() of a tab that does not lead, run by the leader.
 *
 * A forwarded sync() runs in one tab only, chosen by the calling tab: the leader offers to run it
 * ('sync-accepted', naming itself) and runs it only when the caller still waits ('sync-run', naming
 * that leader). An offer that arrives after the caller gave up is ignored, so a late leader never
 * runs a sync() whose caller runs it itself: the two drains would share the records, and the
 * caller would resolve without those the leader delivered.
 */
type Message =
  | { type: 'queued' }
  | { type: 'sync'; id: string }
  | { type: 'sync-accepted'; id: string; by: string }
  | { type: 'sync-run'; id: string; by: string }
  | {
      type: 'synced';
      id: string;
      /** The tab no longer leads: the caller runs it itself. */
      declined?: boolean;
      records?: Location[];
      error?: { code?: string; message: string };
    };

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
  /** Runs another tab's sync() here; null where this tab does not (yet) run them. */
  serveSync: (() => Promise<Location[]>) | null;
  /** Whether this tab leads the uploads (it answers other tabs' sync requests then). */
  leads: () => boolean;
  /**
   * Has the leading tab sync; resolves null when no tab accepted, the leader declined, or `stop`
   * resolved first (the caller syncs itself).
   */
  requestSync(stop?: Promise<void>): Promise<Location[] | null>;
  close(): void;
}

export function createTabChannel(database: string): TabChannel | null {
  if (typeof BroadcastChannel !== 'function') return null;
  const channel = new BroadcastChannel(`waypost:${database}`);
  const post = (message: Message) => channel.postMessage(message);
  const self = globalThis.crypto.randomUUID();
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
    leads: () => false,
    requestSync(stop) {
      const id = globalThis.crypto.randomUUID();
      return new Promise((resolve, reject) => {
        let timer = setTimeout(() => settle(null), SYNC_ACCEPT_TIMEOUT_MS);
        let runner: string | null = null;
        const settle = (message: Message | null) => {
          if (message?.type === 'sync-accepted') {
            // The first offer is taken; another leader's (a lock handed on meanwhile) is not.
            if (runner !== null) return;
            runner = message.by;
            clearTimeout(timer);
            timer = setTimeout(() => settle(null), FORWARDED_SYNC_MAX_MS);
            return post({ type: 'sync-run', id, by: runner });
          }
          if (message !== null && message.type !== 'synced') return;
          clearTimeout(timer);
          waiting.delete(id);
          if (!message || message.declined) return resolve(null);
          if (!message.error) return resolve(message.records ?? []);
          const { code, message: text } = message.error;
          reject(code ? new WaypostError(code as WaypostErrorCode, text) : new Error(text));
        };
        waiting.set(id, settle);
        void stop?.then(() => waiting.get(id)?.(null));
        post({ type: 'sync', id });
      });
    },
    close() {
      for (const settle of [...waiting.values()]) settle(null);
      channel.close();
    },
  };

  const serve = (id: string) => {
    const run = tab.leads() ? tab.serveSync?.() : undefined;
    if (!run) return post({ type: 'synced', id, declined: true });
    run.then(
      (records) => post({ type: 'synced', id, records }),
      (error: Error & { code?: string }) =>
        post({ type: 'synced', id, error: { code: error.code, message: error.message } }),
    );
  };

  channel.onmessage = ({ data }: MessageEvent<Message>) => {
    if (data.type === 'queued') return tab.onQueued?.();
    if (data.type === 'sync') {
      if (tab.leads() && tab.serveSync) post({ type: 'sync-accepted', id: data.id, by: self });
      return;
    }
    if (data.type === 'sync-run') return data.by === self ? serve(data.id) : undefined;
    waiting.get(data.id)?.(data);
  };
  return tab;
}
