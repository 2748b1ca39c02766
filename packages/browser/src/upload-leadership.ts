/**
 * One uploader per origin and database. Every tab asks for the same Web Lock and holds it while it
 * lives; the browser grants it to one of them at a time and hands it on when that tab closes or
 * crashes. The service worker asks for it too, only when it is free (no tab open). Where the Web
 * Locks API is missing, every instance leads: the store's transactional lockNext still keeps two
 * uploads from taking the same record.
 */
export interface UploadLeadership {
  readonly isLeader: boolean;
  /** Called once leadership is held (at once when it already is). Returns an unsubscribe function. */
  onLeader(listener: () => void): () => void;
  /** Gives the lock up (or stops waiting for it). */
  release(): void;
}

export const uploadLockName = (database: string) => `waypost-upload:${database}`;

interface LockManagerLike {
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
  const lead = async () => {
    await beforeLeading();
    leader = true;
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
      .catch(() => undefined); // AbortError when released while still waiting
  }
  return {
    get isLeader() {
      return leader;
    },
    onLeader(listener) {
      listeners.add(listener);
      if (leader) listener();
      return () => listeners.delete(listener);
    },
    release() {
      leader = false;
      listeners.clear();
      abort.abort();
      letGo();
    },
  };
}
