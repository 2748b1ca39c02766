/**
 * One uploader per origin and database. Every tab asks for the same Web Lock and holds it while it
 * lives; the browser grants it to one of them at a time and hands it on when that tab closes or
 * crashes. The service worker asks for it too, for a few seconds (a tab closing lets go of it a
 * moment later), and leaves the queue to a tab that keeps it (service-worker.ts). Where the Web
 * Locks API is missing, every instance leads: the store's transactional lockNext still keeps two
 * uploads from taking the same record.
 */
export interface UploadLeadership {
  readonly isLeader: boolean;
  /** Called once leadership is held (at once when it already is). Returns an unsubscribe function. */
  onLeader(listener: () => void): () => void;
  /**
   * Resolves once this instance leads, or once another holds the lock (another tab leads), or once
   * released. Awaited before createBackgroundGeolocation() resolves, so that a record inserted
   * right after is uploaded at once by a tab that will lead, and `idle()` waits for that upload:
   * before, the grant (and the leader's first IndexedDB transaction) could still be under way, the
   * insert found the gate shut and `idle()` resolved with nothing sent.
   */
  settled(): Promise<void>;
  /** Gives the lock up (or stops waiting for it). */
  release(): void;
}

export const uploadLockName = (database: string) => `waypost-upload:${database}`;

interface LockManagerLike {
  query?(): Promise<{ held?: { name?: string }[]; pending?: { name?: string }[] }>;
  request(
    name: string,
    options: { signal?: AbortSignal; ifAvailable?: boolean },
    callback: (lock: unknown) => Promise<unknown>,
  ): Promise<unknown>;
}

export function webLocks(): LockManagerLike | undefined {
  return (globalThis.navigator as { locks?: LockManagerLike } | undefined)?.locks;
}

/**
 * Waits for the upload lock. `beforeLeading` runs first while the lock is held (the new leader
 * releases the record locks a dead leader left), then the listeners.
 */
export function requestUploadLeadership(database: string, beforeLeading: () => Promise<void>): UploadLeadership {
  const locks = webLocks();
  let leader = false;
  const listeners = new Set<() => void>();
  let letGo: () => void = () => {};
  const abort = new AbortController();
  let settle: () => void = () => {};
  const leadingOrReleased = new Promise<void>((resolve) => (settle = resolve));
  const lead = async () => {
    try {
      await beforeLeading();
    } catch (error) {
      settle(); // creation goes on; this instance does not lead
      throw error;
    }
    if (abort.signal.aborted) return; // released meanwhile: it does not lead
    leader = true;
    settle();
    for (const listener of [...listeners]) listener();
  };
  if (!locks) {
    void lead();
  } else {
    locks
      .request(uploadLockName(database), { signal: abort.signal }, async () => {
        const held = new Promise<void>((resolve) => (letGo = resolve));
        await lead();
        await held;
      })
      // AbortError when released while still waiting; any other refusal of the lock (a context that
      // has none to give) must not leave createBackgroundGeolocation() waiting on settled().
      .catch(() => settle());
  }
  return {
    get isLeader() {
      return leader;
    },
    async settled() {
      if (leader || !locks?.query) return leadingOrReleased;
      const name = uploadLockName(database);
      const state = await locks.query().catch(() => null);
      // Our request still waits while the lock is held: another tab holds it and leads.
      const waiting = state?.pending?.some((lock) => lock.name === name) ?? false;
      if (waiting && (state?.held?.some((lock) => lock.name === name) ?? false)) return;
      return leadingOrReleased;
    },
    onLeader(listener) {
      listeners.add(listener);
      if (leader) listener();
      return () => listeners.delete(listener);
    },
    release() {
      leader = false;
      settle();
      listeners.clear();
      abort.abort();
      letGo();
    },
  };
}
