/** One line of the server's log (pino JSON), with the fields a line may carry. */
export type LogLine = Record<string, unknown> & { code?: string; msg?: string };

export interface CapturedLog {
  /** Give this to startServer as `logStream` (with `logger: true`). */
  stream: { write(line: string): void };
  readonly lines: LogLine[];
  /**
   * Resolves with the first line after the first `since` lines that matches, once it is written
   * (at once if it has been): each line written checks the waits, never a timer.
   */
  line(matches: (line: LogLine) => boolean, since?: number): Promise<LogLine>;
}

/** The server's log, kept as it is written. */
export function captureLog(): CapturedLog {
  const lines: LogLine[] = [];
  let waiters: (() => boolean)[] = [];
  const find = (matches: (line: LogLine) => boolean, since: number) => lines.slice(since).find(matches);
  return {
    stream: {
      write(text: string) {
        lines.push(JSON.parse(text) as LogLine);
        waiters = waiters.filter((check) => !check());
      },
    },
    lines,
    line(matches, since = 0) {
      return new Promise((resolve) => {
        const check = () => {
          const found = find(matches, since);
          if (found) resolve(found);
          return found !== undefined;
        };
        if (!check()) waiters.push(check);
      });
    },
  };
}
