import type { Io } from '../../src/io.js';

/** An Io that keeps what a command writes, and stops a long-running command when told to. */
export interface CapturedIo extends Io {
  out: () => string;
  err: () => string;
  /** Delivers a SIGTERM to a command waiting in io.shutdown(). */
  stop: () => void;
  /** Resolves once stdout matches `pattern` (each write checks it, never a timer). */
  printed: (pattern: RegExp) => Promise<RegExpMatchArray>;
}

export function captureIo(env: Record<string, string | undefined> = {}): CapturedIo {
  let out = '';
  let err = '';
  let waiters: (() => boolean)[] = [];
  let stop: (signal: string) => void = () => undefined;
  const stopped = new Promise<string>((resolve) => (stop = resolve));
  return {
    stdout: {
      write: (text: string) => {
        out += text;
        waiters = waiters.filter((check) => !check());
      },
    },
    stderr: { write: (text: string) => (err += text), isTTY: false },
    env,
    shutdown: () => stopped,
    out: () => out,
    err: () => err,
    stop: () => stop('SIGTERM'),
    printed: (pattern) =>
      new Promise((resolve) => {
        const check = () => {
          const match = pattern.exec(out);
          if (match) resolve(match);
          return match !== null;
        };
        if (!check()) waiters.push(check);
      }),
  };
}
