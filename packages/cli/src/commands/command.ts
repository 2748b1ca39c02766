import type { OptionSpecs } from '../args.js';
import type { Io } from '../io.js';

/** A subcommand: its flags, its --help text and what it does. Returns the exit code. */
export interface Command {
  name: string;
  summary: string;
  help: string;
  options: OptionSpecs;
  positionals?: boolean;
  run(values: Record<string, string | boolean | undefined>, positionals: string[], io: Io): Promise<number>;
}
