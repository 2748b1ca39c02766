import { createConnection } from 'node:net';
import type { Clock, LocationProvider } from '@waypost/sdk/internal';
import { LineSplitter } from './line-splitter.js';
import { GPSD_WATCH_COMMAND, MAX_GPSD_LINE_CHARS, parseGpsdReport } from './gpsd-report.js';
import { keepConnected, type Reconnecting } from './reconnect.js';

export const GPSD_DEFAULT_HOST = '127.0.0.1';
export const GPSD_DEFAULT_PORT = 2947;

export interface GpsdOptions {
  host?: string;
  port?: number;
  clock: Clock;
}

/**
 * Fixes from gpsd over its JSON protocol. gpsd may report one epoch more than once (one TPV per
 * sentence cycle, again after a late GST); a TPV with the same time as the last one delivered is
 * skipped so each epoch is recorded once. Reconnects with backoff when gpsd goes away.
 */
export function createGpsdProvider(options: GpsdOptions): LocationProvider {
  const host = options.host ?? GPSD_DEFAULT_HOST;
  const port = options.port ?? GPSD_DEFAULT_PORT;
  const name = `gpsd ${host}:${port}`;
  let running: Reconnecting | null = null;
  return {
    name,
    start(onFix, onError) {
      if (running) return;
      let lines = new LineSplitter(MAX_GPSD_LINE_CHARS);
      let lastTime: unknown = null;
      running = keepConnected(
        {
          name,
          open: () =>
            new Promise((resolve, reject) => {
              const socket = createConnection({ host, port });
              socket.once('connect', () => {
                socket.off('error', reject);
                resolve(socket);
              });
              socket.once('error', reject);
            }),
          onOpen: (stream) => (stream as unknown as NodeJS.WritableStream).write(GPSD_WATCH_COMMAND),
          onData: (chunk) => {
            for (const line of lines.push(chunk)) {
              const fix = parseGpsdReport(line);
              if (!fix || fix.timestamp === lastTime) continue;
              lastTime = fix.timestamp;
              onFix(fix);
            }
          },
          onClose: () => {
            lines = new LineSplitter(MAX_GPSD_LINE_CHARS);
          },
        },
        options.clock,
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
