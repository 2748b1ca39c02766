/** A position as a host's live feed tells it (GET /api/events). */
export interface FeedEvent {
  deviceId: string;
  stored: number;
  records: number;
  catchUp?: true;
  replay?: true;
}

/**
 * A dashboard's live feed pinned to one host, reconnecting as EventSource does (2 s after the
 * connection ends or fails, with Last-Event-ID), for as long as the test runs: every event it was
 * told, in order, with the connection it came on.
 */
export class PinnedFeed {
  readonly events: (FeedEvent & { connection: number })[] = [];
  connections = 0;
  /** When each connection was answered (for the run's log). */
  readonly connectedAt: number[] = [];
  private lastId: string | null = null;
  private controller = new AbortController();
  private closed = false;
  private waiters: (() => void)[] = [];

  constructor(
    readonly host: string,
    private readonly url: string,
    private readonly token: string,
  ) {}

  start(): void {
    void this.loop();
  }

  private async loop(): Promise<void> {
    while (!this.closed) {
      try {
        await this.connectOnce();
      } catch {
        // refused, reset, cut: try again as EventSource would
      }
      if (!this.closed) await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  }

  private async connectOnce(): Promise<void> {
    const response = await fetch(`${this.url}/api/events`, {
      headers: {
        authorization: `Bearer ${this.token}`,
        ...(this.lastId === null ? {} : { 'last-event-id': this.lastId }),
      },
      signal: this.controller.signal,
    });
    if (response.status !== 200) return;
    const connection = ++this.connections;
    this.connectedAt.push(Date.now());
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of response.body!) {
      buffer += decoder.decode(chunk as Uint8Array, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const id = /^id: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (/^event: position$/m.test(block) && data)
          this.events.push({ ...(JSON.parse(data) as FeedEvent), connection });
        if (id !== undefined) this.lastId = id;
      }
      const woken = this.waiters;
      this.waiters = [];
      woken.forEach((wake) => wake());
    }
  }

  /** Per device, the highest count it was told. */
  told(device: string): number {
    return this.events.filter((e) => e.deviceId === device).reduce((n, e) => Math.max(n, e.records), 0);
  }

  /** Resolves once the feed is connected (its first lines came); fails after `ms`. */
  async connected(ms: number): Promise<void> {
    const deadline = Date.now() + ms;
    while (this.connections === 0) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`the live feed of ${this.host} did not connect within ${ms} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 1000));
        this.waiters.push(() => (clearTimeout(timer), resolve()));
      });
    }
  }

  /** Resolves once every device's count reached `counts`; fails naming what is missing after `ms`. */
  async reached(counts: Map<string, number>, ms: number): Promise<void> {
    const deadline = Date.now() + ms;
    const short = () => [...counts].filter(([device, n]) => this.told(device) < n);
    while (short().length > 0) {
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(
          `the live feed of ${this.host} was not told ${short()
            .map(([device, n]) => `${device} seq ${this.told(device) + 1}-${n}`)
            .join(', ')} within ${ms} ms (${this.connections} connections)`,
        );
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 1000));
        this.waiters.push(() => (clearTimeout(timer), resolve()));
      });
    }
  }

  close(): void {
    this.closed = true;
    this.controller.abort();
  }
}

/**
 * What a feed was told covers every record of each device with no hole: each live or catch-up
 * event tells the records (records - stored, records], which must join what was told before; a
 * replay (after a reconnect) brings a device to the database's count. Records stand for sequence
 * numbers (the fleet's records are stored one batch after another, in order).
 */
export function feedCoversEverything(feed: PinnedFeed, counts: Map<string, number>): string[] {
  const problems: string[] = [];
  for (const [device, final] of counts) {
    let told = 0;
    for (const event of feed.events.filter((e) => e.deviceId === device)) {
      if (event.records <= told) continue; // told already
      const from = event.records - event.stored;
      if (!event.replay && from > told)
        problems.push(
          `feed of ${feed.host}: ${device} seq ${told + 1}-${from} never told (an event told ${from + 1}-${event.records} on connection ${event.connection})`,
        );
      told = event.records;
    }
    if (told !== final) problems.push(`feed of ${feed.host}: ${device} told up to seq ${told} of ${final}`);
  }
  return problems;
}

/**
 * Before any fault, the feed between hosts carries everything live: what a feed was told so far
 * came on its first connection, none of it a catch-up from the database or a replay.
 */
export function toldLiveSoFar(feed: PinnedFeed): string[] {
  const late = feed.events.filter((e) => e.catchUp || e.replay || e.connection !== 1);
  return late.length === 0
    ? []
    : [
        `feed of ${feed.host}: before any fault, ${late.length} of ${feed.events.length} events came late (first: ${JSON.stringify(late[0])})`,
      ];
}
