/** Exit codes: documented in `waypost --help`, relied on by scripts. */
export const EXIT_OK = 0;
/** The command ran but its check failed (records lost, a queue left undelivered, an I/O error). */
export const EXIT_FAILURE = 1;
/** The command line itself is wrong: unknown command or flag, missing or malformed value. */
export const EXIT_USAGE = 2;

export type CliErrorCode = 'USAGE' | 'NO_DATABASE' | 'SERVER' | 'FAILED';

/** An error the CLI reports as one line and turns into an exit code, without a stack trace. */
export class CliError extends Error {
  constructor(
    readonly code: CliErrorCode,
    message: string,
    readonly exitCode: number = code === 'USAGE' ? EXIT_USAGE : EXIT_FAILURE,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

export const usageError = (message: string): CliError => new CliError('USAGE', message);

/** A command stopped by a signal exits as a shell reports it: 128 + the signal's number. */
export const EXIT_SIGINT = 130;
export const EXIT_SIGTERM = 143;

export function signalExitCode(signal: string): number {
  return signal === 'SIGINT' ? EXIT_SIGINT : EXIT_SIGTERM;
}
