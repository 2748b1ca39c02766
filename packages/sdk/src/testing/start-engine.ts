import { BackgroundGeolocation } from '../background-geolocation.js';
import { ManualClock } from '../clock/manual-clock.js';
import type { ConfigInput } from '../config/input-types.js';
import type { HttpEvent } from '../events/types.js';
import { createFetchTransport } from '../http/fetch-transport.js';
import { ManualNetwork } from '../network/manual-network.js';
import type { Store } from '../ports/store.js';
import type { Transport } from '../ports/transport.js';
import type { BackgroundGeolocationDeps } from '../sdk/compose.js';
import { createMemoryStore } from '../store/memory-store.js';
import { KIT_WAIT_MS, within } from './bounded.js';
import { createScriptedServer, type Responder, type ScriptedServer } from './scripted-fetch.js';

export interface EngineOptions extends Partial<Omit<BackgroundGeolocationDeps, 'clock' | 'network' | 'store'>> {
  /** Default: a ManualClock at 2026-01-01: time moves only when the test advances it. */
  clock?: ManualClock;
  /** Default: a ManualNetwork on wifi. */
  network?: ManualNetwork;
  /** Default: a memory store. Give the same store to a second engine to "restart" on it. */
  store?: Store;
  /** The scripted server's first replies, one per request; then 200 `{}` (see setDefault). */
  replies?: Responder[];
  /** Wraps the fetch transport over the scripted server (a transport that breaks, for instance). */
  wrapTransport?: (transport: Transport) => Transport;
  /** Requests after which the scripted server cuts a runaway engine off (default 5000). */
  maxRequests?: number;
  /** Real time the kit waits for idle() and the scripted server's waits before failing (10 s). */
  waitMs?: number;
}

export interface Engine {
  bg: BackgroundGeolocation;
  server: ScriptedServer;
  clock: ManualClock;
  network: ManualNetwork;
  store: Store;
  /** Every http event, in order. */
  http: HttpEvent[];
  /**
   * Fails what the server holds, then closes the engine (its store too). Rejects with the
   * scripted server's runaway error when the engine had to be cut off.
   */
  close(): Promise<void>;
}

/**
 * Opens the engine on the test doubles: a memory store, a ManualNetwork, a ManualClock that also
 * runs the transport's timeout and the server's delays, and the real fetch transport over a
 * scripted server. The clock's advance() waits, after each timer, until the engine is idle or
 * waiting on the clock itself (a delayed or unanswered request). Not readied: see startEngine.
 */
export async function openEngine(options: EngineOptions = {}): Promise<Engine> {
  const {
    replies,
    wrapTransport,
    maxRequests,
    waitMs = KIT_WAIT_MS,
    clock = new ManualClock(),
    network = new ManualNetwork('wifi'),
    ...deps
  } = options;
  const store = options.store ?? createMemoryStore();
  const server = createScriptedServer({
    clock,
    replies,
    waitMs,
    ...(maxRequests === undefined ? {} : { maxRequests }),
  });
  const transport = createFetchTransport({ fetch: server.fetch, timers: clock });
  const bg = await BackgroundGeolocation.open({
    transport: wrapTransport ? wrapTransport(transport) : transport,
    ...deps,
    store,
    network,
    clock,
  });
  // idle() is bounded here: an engine that never idles fails the wait that needed it, named.
  const idle = bg.idle;
  const what = () =>
    `the engine's idle() (${server.requests.length} requests so far, ${server.pending} held unanswered)` +
    (server.runaway ? `: ${server.runaway.message}` : '');
  bg.idle = () => within(idle(), waitMs, what);
  const unregister = clock.settleWith(() =>
    within(Promise.race([idle(), server.holding(1, Infinity)]), waitMs, () => `ManualClock.advance: ${what()}`),
  );
  const http: HttpEvent[] = [];
  bg.onHttp((event) => http.push(event));
  let closing: Promise<void> | null = null;
  return {
    bg,
    server,
    clock,
    network,
    store,
    http,
    close: () =>
      (closing ??= (async () => {
        unregister();
        server.close();
        await bg.close();
        if (server.runaway) throw server.runaway;
      })()),
  };
}

/** openEngine, then ready(config) with http.url pointing at the scripted server. */
export async function startEngine(config: ConfigInput = {}, options: EngineOptions = {}): Promise<Engine> {
  const engine = await openEngine(options);
  try {
    await engine.bg.ready({ ...config, http: { url: engine.server.url, ...config.http } });
  } catch (error) {
    await engine.close();
    throw error;
  }
  return engine;
}

/**
 * Moves the clock `stepMs` at a time until `work` settles, for work that waits on the clock more
 * than once (several delayed answers). Bounded: rejects after `maxSteps` steps, never hangs.
 */
export async function advanceUntil<T>(
  clock: ManualClock,
  work: Promise<T>,
  stepMs: number,
  maxSteps = 1000,
): Promise<T> {
  let settled = false;
  const watched = work.finally(() => (settled = true));
  watched.catch(() => undefined);
  for (let step = 0; !settled; step++) {
    if (step === maxSteps) throw new Error(`advanceUntil: not settled after ${maxSteps} steps of ${stepMs} ms`);
    await clock.advance(stepMs);
  }
  return watched;
}

/**
 * A distinct valid location for each i, all within a few metres of each other: well inside the
 * default stationaryRadius, so recording them never makes motion detection change the pace.
 */
export function at(i: number): { latitude: number; longitude: number; accuracy: number } {
  return { latitude: 45 + i * 1e-6, longitude: -73 + i * 1e-6, accuracy: 5 };
}

/** The uuids of the records a request carried, whatever its body shape. */
export function uuidsOf(body: unknown): string[] {
  const records = (value: unknown): unknown[] => (Array.isArray(value) ? value : [value]);
  if (Array.isArray(body)) return records(body).map((r) => (r as { uuid: string }).uuid);
  const root = (body as Record<string, unknown>)['location'];
  return records(root ?? body).map((r) => (r as { uuid: string }).uuid);
}
