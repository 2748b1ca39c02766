import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  /** The answer it got. */
  status: number;
}

/**
 * A real webhook receiver on 127.0.0.1 (port 0 at first, the same port after a restart): records
 * every request, answers `status` (settable), can go away (connection refused) and come back.
 */
export class WebhookReceiver {
  readonly requests: Received[] = [];
  status = 204;
  /** While true, requests are recorded (status 0) but never answered: a receiver stuck mid-request. */
  hold = false;
  /** Requests from this many on (0-based count of requests so far) are held as with `hold`. */
  holdFrom: number | null = null;
  private server: Server | null = null;
  private held: ServerResponse[] = [];
  private port = 0;
  private waiters: { count: number; accept: (r: Received) => boolean; resolve: () => void }[] = [];

  /** host: the address it listens on (a test's bridge address, for servers in other network namespaces). */
  constructor(private readonly host = '127.0.0.1') {}

  get url(): string {
    return `http://${this.host}:${this.port}/hook`;
  }

  async start(): Promise<this> {
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const held = this.hold || (this.holdFrom !== null && this.requests.length >= this.holdFrom);
        const status = held ? 0 : this.status;
        this.requests.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), status });
        if (status !== 0) response.writeHead(status).end();
        else this.held.push(response);
        this.wake();
      });
    });
    await new Promise<void>((resolve) => server.listen(this.port, this.host, resolve));
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
    return this;
  }

  /** Goes away: connections are refused until start() again. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }

  /**
   * Drops the connections of the requests it held (a receiver that gives up mid-request): the
   * sender's attempt fails now instead of at its own timeout.
   */
  release(): void {
    for (const response of this.held.splice(0)) response.destroy();
  }

  /** Requests it answered with a 2xx, as parsed events. */
  accepted<T = Record<string, unknown>>(): T[] {
    return this.requests.filter((r) => r.status >= 200 && r.status < 300).map((r) => JSON.parse(r.body) as T);
  }

  /** Resolves once `count` requests matching `accept` have come (no polling: each request checks). */
  waitFor(
    count: number,
    accept: (r: Received) => boolean = (r) => r.status >= 200 && r.status < 300,
    timeoutMs = 20_000,
  ): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        // Every answer it gave, in order: which requests came, and which did not, says what failed.
        () =>
          reject(
            new Error(
              `receiver: ${this.requests.filter(accept).length} of ${count} requests came (answers so far: ${this.requests.map((r) => r.status).join(', ') || 'none'})`,
            ),
          ),
        timeoutMs,
      );
      this.waiters.push({
        count,
        accept,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      });
      this.wake();
    });
  }

  private wake(): void {
    this.waiters = this.waiters.filter((w) => {
      if (this.requests.filter(w.accept).length < w.count) return true;
      w.resolve();
      return false;
    });
  }
}
