/** Where a command writes and how it learns to stop: the process by default, captured in tests. */
export interface Io {
  /** Results: tables, counts, JSON. */
  stdout: { write(text: string): unknown };
  /** Progress and diagnostics. */
  stderr: { write(text: string): unknown; isTTY?: boolean };
  env: Record<string, string | undefined>;
  /** Resolves with the signal's name when the process is asked to stop (SIGINT, SIGTERM). */
  shutdown: () => Promise<string>;
  /**
   * Ends the process now. Only a long-running command uses it, when closing cleanly took longer
   * than its bound; absent when the command runs inside another program (tests).
   */
  exit?: (code: number) => never;
}

export function processIo(): Io {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    exit: (code) => process.exit(code),
    shutdown: () =>
      new Promise((resolve) => {
        const stop = (signal: string) => {
          process.off('SIGINT', stop);
          process.off('SIGTERM', stop);
          resolve(signal);
        };
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
      }),
  };
}
