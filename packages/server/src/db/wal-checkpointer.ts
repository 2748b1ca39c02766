import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** One checkpoint's outcome, as `PRAGMA wal_checkpoint` reports it (pages = WAL frames). */
export interface CheckpointResult {
  mode: 'PASSIVE' | 'TRUNCATE';
  /** 1 when the checkpoint could not finish (a writer or a reader on an older snapshot). */
  busy: number;
  /** Frames in the WAL when it ran (0 after a TRUNCATE). */
  log: number;
  /** Of those, frames now copied into the database file. */
  checkpointed: number;
}

export interface CheckpointOptions {
  /** Time between two checkpoints of the worker; default 250 ms. Tests inject a shorter one. */
  intervalMs?: number;
  /** WAL frames (pages) past which the next write waits for the WAL to be reused; default 4,096 (16 MiB). */
  restartFrames?: number;
  /** Called after each checkpoint (tests wait on it instead of sleeping). */
  onCheckpoint?: (result: CheckpointResult) => void;
}

export interface Checkpointer {
  /**
   * Before a write transaction: undefined, or (once the WAL has passed restartFrames) a promise the
   * writer awaits, resolved when the thread has copied the whole WAL in. SQLite reuses the WAL from
   * its start only when a write begins with every frame copied; under sustained ingest a checkpoint on
   * a timer always ends behind the last commit, so without this pause the WAL file would grow without
   * bound. The pause is awaited, not blocked on: the event loop goes on taking requests meanwhile.
   */
  beforeWrite(): Promise<void> | undefined;
  /** Stops the thread after its checkpoint in progress, if any, and closes its connection. */
  stop(): Promise<void>;
}

type WorkerMessage =
  { type: 'checkpoint'; result: CheckpointResult; drained: boolean } | { type: 'failed'; message: string };

export const DEFAULT_CHECKPOINT_INTERVAL_MS = 250;
export const DEFAULT_RESTART_FRAMES = 4096;
/** The server is taken as idle after this many ticks without a new frame (1 s by default). */
const IDLE_TICKS = 4;

/**
 * The thread's program, plain JavaScript (run with eval: the same text under the TypeScript sources
 * in tests and under dist). busy_timeout 0: the thread never waits for a lock; a checkpoint that
 * meets one is finished next tick. PASSIVE copies what it can without taking the write lock. Only
 * once the whole WAL has been copied and IDLE_TICKS ticks found nothing new (the server is idle)
 * does a TRUNCATE, which takes the write lock for a moment, empty the file on disk: under load the
 * WAL file does not shrink, it is only reused from its start after a complete checkpoint.
 * 'drain' (the server's writes are paused, beforeWrite): a PASSIVE at once, which then copies all.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 0');
db.pragma('synchronous = NORMAL');
let lastLog = -1;
let quietTicks = 0;
let timer;
let stopped = false;
const checkpoint = (mode) => ({ mode, ...db.pragma('wal_checkpoint(' + mode + ')')[0] });
const tick = (drained) => {
  clearTimeout(timer);
  try {
    let result = checkpoint('PASSIVE');
    quietTicks = result.log === lastLog ? quietTicks + 1 : 0;
    lastLog = result.log;
    const allCopied = result.busy === 0 && result.log > 0 && result.checkpointed === result.log;
    if (!drained && quietTicks >= ${IDLE_TICKS} && allCopied) {
      result = checkpoint('TRUNCATE');
      lastLog = result.log;
    }
    parentPort.postMessage({ type: 'checkpoint', result, drained });
  } catch (error) {
    parentPort.postMessage({ type: 'failed', message: String((error && error.message) || error) });
    stopped = true;
    db.close();
    parentPort.close();
    return;
  }
  if (!stopped) timer = setTimeout(tick, workerData.intervalMs, false);
};
parentPort.on('message', (message) => {
  if (stopped) return;
  if (message === 'drain') return tick(true);
  stopped = true;
  clearTimeout(timer);
  db.close();
  parentPort.close();
});
timer = setTimeout(tick, workerData.intervalMs, false);
`;

/**
 * Checkpoints a WAL-mode SQLite file from a worker thread with its own connection, so that the
 * copy of the WAL into the database file (and its fsyncs) never runs on the server's event loop.
 * `onFailure` is called once if the thread stops by itself (its connection failed): the caller then
 * checkpoints on its own connection again, so the WAL stays bounded.
 */
export function startCheckpointer(
  file: string,
  options: CheckpointOptions,
  onFailure: (message: string) => void,
): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const intervalMs = options.intervalMs ?? DEFAULT_CHECKPOINT_INTERVAL_MS;
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file, driver, intervalMs } });
  // A process that ends without closing the server must not wait for the thread; SQLite keeps a
  // checkpoint cut short safe (the WAL is folded in again by the next one).
  worker.unref();
  const restartFrames = options.restartFrames ?? DEFAULT_RESTART_FRAMES;
  let stopping = false;
  let failed = false;
  let walFrames = 0;
  let drain: { promise: Promise<void>; resolve: () => void } | null = null;
  const endDrain = (): void => {
    drain?.resolve();
    drain = null;
    if (!stopping) worker.unref();
  };
  const fail = (message: string): void => {
    endDrain();
    if (failed || stopping) return;
    failed = true;
    onFailure(message);
  };
  worker.on('message', (message: WorkerMessage) => {
    if (message.type === 'failed') return fail(message.message);
    walFrames = message.result.log;
    // The WAL is reused by the write that follows; until the next report, take it as reused.
    if (message.drained) {
      walFrames = 0;
      endDrain();
    }
    options.onCheckpoint?.(message.result);
  });
  worker.on('error', (error) => fail(error.message));
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  void exited.then(() => fail('the checkpoint thread exited'));
  return {
    beforeWrite(): Promise<void> | undefined {
      if (drain) return drain.promise;
      if (walFrames < restartFrames || failed || stopping) return undefined;
      let resolve = (): void => undefined;
      const promise = new Promise<void>((done) => (resolve = done));
      drain = { promise, resolve };
      // Awaited work keeps the process alive, as any pending I/O would.
      worker.ref();
      worker.postMessage('drain');
      return promise;
    },
    async stop(): Promise<void> {
      stopping = true;
      endDrain();
      // The process waits for the thread to close its connection (else a close() awaited last in a
      // program would be cut short with the thread).
      worker.ref();
      worker.postMessage('stop');
      await exited;
    },
  };
}
