import { execFile } from 'node:child_process';
import { constants, createReadStream, openSync } from 'node:fs';
import { createConnection } from 'node:net';
import { isatty, ReadStream as TtyReadStream } from 'node:tty';
import { promisify } from 'node:util';
import type { Clock, LocationInput, LocationProvider } from '@waypost/sdk/internal';
import { NmeaDecoder, utcMidnight, type NmeaStats } from './nmea-decoder.js';
import { ProviderError } from './provider-error.js';
import { keepConnected, type LiveSource, type Reconnecting } from './reconnect.js';
import { replayAtPace, stoppableSleep } from './replay.js';

export const DEFAULT_BAUD = 4800;

export interface NmeaProvider extends LocationProvider {
  readonly stats: NmeaStats;
}

type Opener = LiveSource['open'];

/** An NMEA stream that is kept open: a serial device or a TCP socket, reopened after a failure. */
function liveNmeaProvider(name: string, open: Opener, clock: Clock): NmeaProvider {
  const decoder = new NmeaDecoder(() => utcMidnight(clock.now()));
  let running: Reconnecting | null = null;
  return {
    name,
    get stats() {
      return decoder.stats;
    },
    start(onFix, onError) {
      if (running) return;
      running = keepConnected(
        {
          name,
          open,
          onData: (chunk) => decoder.push(chunk).forEach(onFix),
          // The epoch in progress is as complete as it will get; a half line is dropped.
          onClose: () => {
            const last = decoder.end();
            if (running) last.forEach(onFix); // not after stop(): a stopped provider delivers nothing
          },
        },
        clock,
        onError,
      );
    },
    async stop() {
      const r = running;
      running = null;
      await r?.stop();
    },
  };
}

/** NMEA from a TCP server (a receiver on the network, gpsd's raw port, ser2net). */
export function createNmeaTcpProvider(options: { host: string; port: number; clock: Clock }): NmeaProvider {
  const open: Opener = () =>
    new Promise((resolve, reject) => {
      const socket = createConnection({ host: options.host, port: options.port });
      socket.once('connect', () => {
        socket.off('error', reject);
        resolve(socket);
      });
      socket.once('error', reject);
    });
  return liveNmeaProvider(`nmea-tcp ${options.host}:${options.port}`, open, options.clock);
}

/**
 * NMEA from a serial device. The line speed is set with `stty` (coreutils) before each open, then
 * the tty is read as a non-blocking stream: no native module, nothing downloaded at install.
 */
export function createNmeaSerialProvider(options: { path: string; baud?: number; clock: Clock }): NmeaProvider {
  const baud = options.baud ?? DEFAULT_BAUD;
  const open: Opener = async () => {
    const fd = openSync(options.path, constants.O_RDONLY | constants.O_NOCTTY | constants.O_NONBLOCK);
    if (isatty(fd)) {
      await promisify(execFile)('stty', ['-F', options.path, String(baud), 'raw', '-echo']);
      return new TtyReadStream(fd);
    }
    return createReadStream('', { fd });
  };
  return liveNmeaProvider(`nmea ${options.path} at ${baud} baud`, open, options.clock);
}

function refused(stats: NmeaStats): string {
  const lines = stats.badChecksum + stats.malformed + stats.overlong;
  if (lines === 0) return 'it is empty';
  return `${lines} line(s) refused: ${stats.malformed} malformed, ${stats.badChecksum} bad checksum, ${stats.overlong} over-long`;
}

/**
 * NMEA from a file, replayed at its recorded pace times `speed` (0 = as fast as possible), or from
 * standard input (path "-"), delivered as it arrives. Ends (onEnd) when the input is exhausted.
 */
export function createNmeaFileProvider(options: { path: string; speed?: number; clock: Clock }): NmeaProvider {
  const clock = options.clock;
  const decoder = new NmeaDecoder(() => utcMidnight(clock.now()));
  const fromStdin = options.path === '-';
  const pause = stoppableSleep(clock);
  let stopped = false;
  let done: Promise<void> | null = null;

  async function* fixes(): AsyncGenerator<LocationInput> {
    const input = fromStdin ? process.stdin : createReadStream(options.path);
    for await (const chunk of input as AsyncIterable<Buffer>) {
      if (stopped) return;
      yield* decoder.push(chunk);
    }
    yield* decoder.end();
    // A file without a single valid sentence is not NMEA (another format, the wrong file): an
    // error, not a replay of nothing that looks like success.
    if (decoder.stats.sentences === 0) throw new Error(`no NMEA 0183 sentence in it (${refused(decoder.stats)})`);
  }

  const name = fromStdin ? 'nmea standard input' : `nmea-file ${options.path}`;
  return {
    name,
    get stats() {
      return decoder.stats;
    },
    start(onFix, onError, onEnd) {
      if (done) return;
      stopped = false;
      const speed = fromStdin ? 0 : (options.speed ?? 1);
      done = replayAtPace(fixes(), { speed, clock }, onFix, () => stopped, pause.sleep).then(
        () => {
          if (!stopped) onEnd?.();
        },
        (error: Error) => {
          onError(new ProviderError('SOURCE_INVALID', `${name}: ${error.message}`));
          onEnd?.();
        },
      );
    },
    async stop() {
      stopped = true;
      pause.cancel();
      // A read from standard input may wait forever for the next byte; do not wait for it.
      if (fromStdin) process.stdin.pause();
      else await done;
      done = null;
    },
  };
}
