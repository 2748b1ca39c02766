import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import {
  createBackgroundGeolocation,
  createProviderFromSource,
  isWaypostError,
  openSqliteStore,
  systemClock,
  type BackgroundGeolocation,
  type Clock,
  type NetworkMonitor,
  type Store,
} from '@waypost/node';
import { persistentDeviceUuid } from '@waypost/sdk/internal';
import { formatDuration } from '../args.js';
import { CliError, EXIT_FAILURE, EXIT_OK, EXIT_USAGE, usageError } from '../errors.js';
import type { Io } from '../io.js';
import { describeUploadFailure, oneLine, unansweredFailure } from '../upload-failure.js';
import { AGENT, type AgentOptions } from './agent-options.js';
import { decideIdentity, hostDeviceName, IDENTITY_SOURCES } from './device-identity.js';
import { drainQueue, type DrainEnd } from './drain.js';
import { observedProvider } from './observed-provider.js';
import { decideLaunch } from './launch.js';
import { SEED_KEY, seedCredentials, tokensToApply } from './seed-credentials.js';

/** How often the agent looks for a configuration saved by another process. */
export const CONFIG_POLL_MS = 2_000;
/** The agent's own key in the shared database: the boot it last ran in. */
const BOOT_KEY = 'agent.bootId';

export interface AgentRuntime {
  clock?: Clock;
  network?: NetworkMonitor;
  /** The host's boot id; default /proc/sys/kernel/random/boot_id. */
  bootId?: () => string | undefined;
}

function readBootId(): string | undefined {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** Only the origin: a URL's path or query may carry a credential, which never goes into a log. */
function safeOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'the configured http.url';
  }
}

const TOKEN_SOURCES = {
  file: 'from the configuration file',
  database: "from the database (the file's were applied before; the SDK keeps the refreshed ones)",
} as const;

function describe(error: unknown): string {
  const e = error as Error & { code?: string };
  return `${e.code ? `${e.code}: ` : ''}${e.message}`;
}

/**
 * The long-running service: one owner of the database, the location source and the uploads.
 * Resolves with the exit code when a signal (or, with --exit-when-done, the end of a file source
 * and an empty queue) ends it.
 */
export async function runAgent(options: AgentOptions, io: Io, runtime: AgentRuntime = {}): Promise<number> {
  const clock = runtime.clock ?? systemClock;
  const say = (message: string) => io.stderr.write(`${AGENT}: ${message}\n`);
  // Listen for SIGTERM/SIGINT before anything else: a signal during start-up (systemd stopping a
  // unit that is still starting) must end in a clean stop, not the default instant death.
  const signalled = io.shutdown();
  let sourceEnded!: () => void;
  let sourceFinished = false;
  const sourceDone = new Promise<void>((resolve) => (sourceEnded = resolve)).then(() => void (sourceFinished = true));
  let launched = false;
  let shuttingDown = false;
  // A file that cannot be read or parsed is a bad command line (exit 2), not a source to wait for.
  const fileSource = options.source.kind === 'gpx' || options.source.kind === 'nmea-file';
  let sourceInvalid!: (message: string) => void;
  const badFile = new Promise<string>((resolve) => (sourceInvalid = resolve));
  const source = createProviderFromSource(options.source, { clock, replaySpeed: options.replaySpeed });
  const sourceName = source.name ?? options.sourceText;
  // The engine runs the source while tracking is enabled; the agent hears what it reports.
  const provider = observedProvider(source, {
    onError: (error) => {
      // The providers' messages start with the source's name: say it once.
      const message = error.message.startsWith(`${sourceName}: `)
        ? error.message.slice(sourceName.length + 2)
        : error.message;
      say(`source ${sourceName}: ${describe({ code: error.code, message })}`);
      if (fileSource && error.code === 'SOURCE_INVALID') sourceInvalid(describe(error));
    },
    onEnd: () => {
      say(`source ${sourceName} exhausted`);
      sourceEnded();
    },
  });
  let store: Store;
  let bg: BackgroundGeolocation;
  try {
    store = openSqliteStore(options.database);
    bg = await createBackgroundGeolocation({
      store,
      clock,
      trackingProvider: provider,
      ...(runtime.network ? { network: runtime.network } : {}),
    });
  } catch (error) {
    throw new CliError('FAILED', `${AGENT}: cannot open ${options.database}: ${describe(error)}`);
  }
  const lastBootId = await store.kv.get(BOOT_KEY);
  const wasTracking = bg.tracking.enabled;
  const seed = seedCredentials(options.sdk);
  const tokensFrom = tokensToApply(seed, await store.kv.get(SEED_KEY));
  try {
    // Merged over the saved configuration: what an app or a remote command changed survives a
    // restart, and so do the tokens the SDK refreshed since the file's were applied.
    await bg.ready({ ...(tokensFrom === 'file' ? options.sdk : seed.withoutTokens), reset: false });
    if (seed.digest !== null && tokensFrom === 'file') await store.kv.set(SEED_KEY, seed.digest);
  } catch (error) {
    await bg.close();
    if (isWaypostError(error, 'INVALID_CONFIG')) throw usageError(`${AGENT}: ${error.message}`);
    throw error;
  }
  if (options.exitWhenDone && !bg.config.current.http.url) {
    await bg.close();
    throw usageError(
      `${AGENT}: --exit-when-done waits for the queue to be uploaded, but no http.url is configured (--url)`,
    );
  }
  const identity = decideIdentity(
    options.deviceId,
    bg.config.current.http,
    hostDeviceName(hostname(), await persistentDeviceUuid(store)),
  );
  if (identity.http) await bg.setConfig({ http: identity.http });
  const bootId = (runtime.bootId ?? readBootId)();
  const launch = decideLaunch({ bootId, lastBootId, wasTracking, startOnBoot: bg.config.current.app.startOnBoot });
  if (bootId) await store.kv.set(BOOT_KEY, bootId);

  let lastFailure: string | null = null;
  bg.onEnabledChange((enabled) => {
    say(enabled ? 'tracking started' : 'tracking stopped');
    // A stop while a file is replayed (a remote command, an app) ends the file for
    // --exit-when-done: nothing else would, since without tracking there is no upload and so no
    // reply that could start it again. The agent drains what was recorded and exits.
    if (!enabled && launched && !shuttingDown && options.exitWhenDone && !sourceFinished) {
      say('the rest of the file is not read (tracking was stopped): finishing with what was recorded');
      sourceEnded();
    }
  });
  // A server steers the agent through its replies: say what it asked, and whether it worked. The
  // name only, as in the SDK log: arguments (a setConfig) may carry tokens.
  bg.onRemoteCommand((event) => {
    const outcome = event.ok ? 'done' : `refused: ${oneLine(event.error ?? 'unknown error')}`;
    say(`remote command ${oneLine(event.command, 60)} ${outcome}`);
  });
  bg.onAuthorization((event) => {
    if (!event.success) say(`authorization failed (HTTP ${event.status}): ${oneLine(event.error ?? 'refresh failed')}`);
  });
  bg.onHttp((event) => {
    if (event.success) return;
    lastFailure = describeUploadFailure(event);
    say(`upload failed (${lastFailure}); the records stay queued`);
  });

  if (launch.track && !bg.tracking.enabled) await bg.start();
  else if (!launch.track && bg.tracking.enabled) await bg.stop();
  const url = bg.config.current.http.url;
  const target = url ? `uploading to ${safeOrigin(url)}` : 'no http.url: queueing only';
  say(`${launch.reason}; source ${options.sourceText}, database ${options.database}, ${target}`);
  say(`device id ${identity.deviceId} (from ${IDENTITY_SOURCES[identity.source]})`);
  if (seed.digest !== null) say(`authorization tokens ${TOKEN_SOURCES[tokensFrom]}`);
  if (!launch.track) sourceEnded(); // nothing will be read: a file source counts as done
  launched = true;

  let pollTimer: unknown;
  const poll = () => {
    pollTimer = clock.setTimeout(() => {
      bg.reloadConfig().then(
        (changed) => {
          if (changed.length > 0) say(`configuration changed by another process: ${changed.join(', ')}`);
          poll();
        },
        (error) => {
          say(`reading the shared configuration failed: ${describe(error)}`);
          poll();
        },
      );
    }, CONFIG_POLL_MS);
  };
  poll();

  // Settles when the agent begins to stop, whatever the reason: the drain's waits end with it.
  let beginStopping!: () => void;
  const stopping = new Promise<void>((resolve) => (beginStopping = resolve));
  const drained: Promise<DrainEnd> = options.exitWhenDone
    ? sourceDone.then(() => drainQueue(bg, clock, options.giveUpAfterMs, stopping))
    : new Promise(() => {});
  const ending = await Promise.race([
    signalled.then((signal) => ({ kind: 'signal' as const, signal })),
    drained,
    badFile.then((message) => ({ kind: 'bad-file' as const, message })),
  ]);
  shuttingDown = true;
  beginStopping();
  clock.clearTimeout(pollTimer);
  let exitCode = EXIT_OK;
  if (ending.kind === 'done') say('source done and queue empty: stopping');
  else if (ending.kind === 'signal') say(`${ending.signal}: stopping`);
  else if (ending.kind === 'bad-file') {
    say(`cannot read ${options.sourceText}: ${ending.message}; stopping`);
    exitCode = EXIT_USAGE;
  } else {
    say(
      `gave up: ${ending.left} record(s) not delivered after ${formatDuration(options.giveUpAfterMs)} without a ` +
        `delivery (--give-up-after); last failure: ${ending.unanswered ? unansweredFailure(bg.config.current.http, `${formatDuration(options.giveUpAfterMs)} (--give-up-after)`) : (lastFailure ?? 'none reported')}. They stay queued in ${options.database}.`,
    );
    exitCode = EXIT_FAILURE;
  }
  // stop() (stopOnTerminate) or close() stops the source first, and waits for the fix being recorded.
  if (bg.config.current.app.stopOnTerminate && bg.tracking.enabled) await bg.stop();

  let bound: unknown;
  const closed = await Promise.race([
    bg.close().then(() => true),
    new Promise<false>((resolve) => (bound = clock.setTimeout(() => resolve(false), options.shutdownTimeoutMs))),
  ]);
  clock.clearTimeout(bound);
  if (!closed) {
    // The upload in flight did not end in time: release its records now so that nothing stays
    // locked, whoever opens the database next; they are sent again (the server deduplicates).
    const released = await store.locations.unlockAll();
    say(
      `closing took over ${options.shutdownTimeoutMs} ms: ${released} record(s) of the upload in flight released; exiting`,
    );
    io.exit?.(exitCode);
    return exitCode;
  }
  say('closed');
  return exitCode;
}
