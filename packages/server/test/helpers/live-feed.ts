/** A position as the live feed (server-sent events, GET /api/events) announces it. */
export interface LivePosition {
  deviceId: string;
  stored: number;
  latitude: number;
  longitude: number;
  timestamp: string;
}

export interface LiveFeedClient {
  /** Every position announced since the feed was opened, in order. */
  readonly positions: LivePosition[];
  /** Resolves with the first position of `deviceId` (at once if one has arrived). */
  next(deviceId: string): Promise<LivePosition>;
  /** Resolves with the first position that matches (at once if one has arrived). */
  find(matches: (position: LivePosition) => boolean): Promise<LivePosition>;
  /** Resolves once `count` announcements have arrived. */
  atLeast(count: number): Promise<void>;
  /**
   * Resolves once the announcements of `deviceId` add up to `count` records stored (one may carry
   * several); with `withinMs`, fails after that long naming the device and how many were announced.
   */
  storedAtLeast(deviceId: string, count: number, withinMs?: number): Promise<void>;
  close(): void;
}

/**
 * A dashboard's live feed of one server: what it announces is collected as it arrives, and each
 * arrival wakes the waits, so a test awaits exactly the positions it asserts (the test's timeout
 * bounds a wait for one that never comes). Resolves once the server has subscribed it.
 */
export async function openLiveFeed(url: string, token: string | { cookie: string }): Promise<LiveFeedClient> {
  const controller = new AbortController();
  const response = await fetch(`${url}/api/events`, {
    // A token, or a dashboard session's cookie (a user's: what the feed announces is their scope).
    headers: typeof token === 'string' ? { authorization: `Bearer ${token}` } : { cookie: token.cookie },
    signal: controller.signal,
  });
  if (response.status !== 200) throw new Error(`GET /api/events answered ${response.status}`);
  const positions: LivePosition[] = [];
  let waiters: (() => void)[] = [];
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body!) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = /^event: position\ndata: (.*)$/m.exec(block);
          if (data) positions.push(JSON.parse(data[1]!) as LivePosition);
        }
        const woken = waiters;
        waiters = [];
        woken.forEach((wake) => wake());
      }
    } catch {
      // aborted at the end of the test
    }
  })();
  const arrival = () => new Promise<void>((resolve) => waiters.push(resolve));
  const storedOf = (deviceId: string) =>
    positions.filter((p) => p.deviceId === deviceId).reduce((sum, p) => sum + p.stored, 0);
  const find = async (matches: (position: LivePosition) => boolean): Promise<LivePosition> => {
    for (;;) {
      const found = positions.find(matches);
      if (found) return found;
      await arrival();
    }
  };
  return {
    positions,
    find,
    next: (deviceId) => find((p) => p.deviceId === deviceId),
    async atLeast(count) {
      while (positions.length < count) await arrival();
    },
    async storedAtLeast(deviceId, count, withinMs) {
      const deadline = withinMs === undefined ? Infinity : Date.now() + withinMs;
      while (storedOf(deviceId) < count) {
        const left = deadline - Date.now();
        if (left <= 0) {
          throw new Error(
            `live feed: ${storedOf(deviceId)} of ${count} records of ${deviceId} announced within ${withinMs} ms`,
          );
        }
        let timer: ReturnType<typeof setTimeout> | undefined;
        await Promise.race([
          arrival(),
          new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.min(left, 2 ** 31 - 1)))),
        ]);
        clearTimeout(timer);
      }
    },
    close: () => controller.abort(),
  };
}
