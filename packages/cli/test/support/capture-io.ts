import type { Io } from '../../src/io.js';

/** An Io that keeps what a command writes, and stops a long-running command when told to. */
export interface CapturedIo extends Io {
  out: () => string;
  err: () => string;
  /** Delivers a SIGTERM to a command waiting in io.shutdown(). */
  stop: () => void;
}

export function captureIo(env: Record<string, string | undefined> = {}): CapturedIo {
  let out = '';
  let err = '';
  let stop: (signal: string) => void = () => undefined;
  const stopped = new Promise<string>((resolve) => (stop = resolve));
  return {
    stdout: { write: (text: string) => (out += text) },
    stderr: { write: (text: string) => (err += text), isTTY: false },
    env,
    shutdown: () => stopped,
    out: () => out,
    err: () => err,
    stop: () => stop('SIGTERM'),
  };
}
