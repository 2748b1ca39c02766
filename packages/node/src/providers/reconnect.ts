import type { Clock, ProviderErrorListener } from '@waypost/sdk/internal';
import { ProviderError } from './provider-error.js';

export const RECONNECT_BASE_MS = 500;
export const RECONNECT_MAX_MS = 30_000;

/** Exponential backoff for the n-th consecutive failure (0-based), capped. */
export function reconnectDelayMs(attempt: number): number {
  return Math.min(RECONNECT_MAX_MS, RECONNECT_BASE_MS * 2 ** Math.min(attempt, 16));
}

/** What a live source needs to be kept connected: how to open it and what to do with its bytes. */
export interface LiveSource {
  /** For messages: "gpsd 127.0.0.1:2947". */
  name: string;
  /** Resolves with an open stream, or rejects when the source cannot be reached. */
  open(): Promise<NodeJS.ReadableStream & { destroy(): void }>;
  onOpen?(stream: NodeJS.ReadableStream): void;
  onData(chunk: Buffer): void;
  /** Called when a connection ends, so a decoder can drop a half-read line. */
  onClose?(): void;
}

export interface Reconnecting {
  stop(): Promise<void>;
}

/**
 * Keeps a live source open until stop(): each failure is reported once and followed by a retry
 * after reconnectDelayMs(); a connection that delivered data resets the backoff. Timers come from
 * the injected clock.
 */
export function keepConnected(source: LiveSource, clock: Clock, onError: ProviderErrorListener): Reconnecting {
  let stopped = false;
  let current: (NodeJS.ReadableStream & { destroy(): void }) | null = null;
  let wake: (() => void) | null = null;
  let timer: unknown;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      wake = resolve;
      timer = clock.setTimeout(resolve, ms);
    });

  const runOnce = async (): Promise<boolean> => {
    let stream: NodeJS.ReadableStream & { destroy(): void };
    try {
      stream = await source.open();
    } catch (error) {
      if (!stopped) onError(new ProviderError('SOURCE_UNAVAILABLE', `${source.name}: ${(error as Error).message}`));
      return false;
    }
    if (stopped) {
      stream.destroy();
      return false;
    }
    current = stream;
    let delivered = false;
    const why = await new Promise<string>((resolve) => {
      stream.on('data', (chunk: Buffer) => {
        delivered = true;
        source.onData(chunk);
      });
      stream.once('error', (error: Error) => resolve(error.message));
      stream.once('end', () => resolve('closed by the other side'));
      stream.once('close', () => resolve('closed'));
      source.onOpen?.(stream);
    });
    current = null;
    stream.destroy();
    source.onClose?.();
    if (!stopped) onError(new ProviderError('SOURCE_LOST', `${source.name}: ${why}`));
    return delivered;
  };

  const done = (async () => {
    let attempt = 0;
    while (!stopped) {
      const delivered = await runOnce();
      if (stopped) break;
      attempt = delivered ? 0 : attempt + 1;
      await sleep(reconnectDelayMs(attempt));
    }
  })();

  return {
    async stop() {
      stopped = true;
      clock.clearTimeout(timer);
      wake?.();
      current?.destroy();
      await done;
    },
  };
}
