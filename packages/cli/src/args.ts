import { parseArgs, type ParseArgsConfig } from 'node:util';
import { nearestKey } from '@waypost/sdk/internal';
import { usageError } from './errors.js';

export type OptionSpecs = NonNullable<ParseArgsConfig['options']>;

export interface Parsed {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

/**
 * node:util parseArgs with errors a user can act on: the offending flag is named together with
 * the command, and every error is a usage error (exit code 2).
 */
export function parseCommandLine(command: string, argv: string[], options: OptionSpecs, positionals = false): Parsed {
  try {
    const { values, positionals: rest } = parseArgs({
      args: argv,
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: positionals,
      strict: true,
    });
    return { values: values as Parsed['values'], positionals: rest };
  } catch (error) {
    const reason = describeParseError(error as Error & { code?: string }, Object.keys(options));
    throw usageError(`${command}: ${reason} (see ${command} --help)`);
  }
}

function describeParseError(error: Error & { code?: string }, known: string[]): string {
  const flag = /'(-{1,2}[^' ]+)/.exec(error.message)?.[1];
  switch (error.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION': {
      // "--prot=8080" names the flag --prot.
      const name = flag?.replace(/^-+/, '').split('=')[0];
      const nearest = name ? nearestKey(name, [...known, 'help']) : undefined;
      return `unknown flag ${flag ?? error.message}${nearest ? `; did you mean --${nearest}?` : ''}`;
    }
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      if (/argument missing/.test(error.message)) return `flag ${flag} needs a value`;
      if (/ambiguous/.test(error.message)) {
        return `flag ${flag} needs a value (write a value that starts with a dash as ${flag}=-...)`;
      }
      return `flag ${flag} does not take a value`;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `unexpected argument ${/'([^']+)'/.exec(error.message)?.[1] ?? ''}`.trim();
    default:
      return error.message;
  }
}

export function stringFlag(values: Parsed['values'], flag: string): string | undefined {
  const value = values[flag];
  return typeof value === 'string' ? value : undefined;
}

export function requireFlag(command: string, values: Parsed['values'], flag: string): string {
  const value = stringFlag(values, flag);
  if (value === undefined || value === '')
    throw usageError(`${command}: --${flag} is required (see ${command} --help)`);
  return value;
}

export function integerFlag(
  command: string,
  values: Parsed['values'],
  flag: string,
  fallback: number,
  range: { min?: number; max?: number } = {},
): number {
  const text = stringFlag(values, flag);
  if (text === undefined) return fallback;
  const value = Number(text);
  const min = range.min ?? Number.MIN_SAFE_INTEGER;
  const max = range.max ?? Number.MAX_SAFE_INTEGER;
  if (!/^-?\d+$/.test(text.trim()) || value < min || value > max) {
    const allowed =
      range.max !== undefined ? `an integer from ${min} to ${max}` : `an integer of at least ${range.min ?? 0}`;
    throw usageError(`${command}: --${flag} ${JSON.stringify(text)} is not ${allowed}`);
  }
  return value;
}

export function numberFlag(
  command: string,
  values: Parsed['values'],
  flag: string,
  fallback: number,
  min: number,
): number {
  const text = stringFlag(values, flag);
  if (text === undefined) return fallback;
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value < min) {
    throw usageError(`${command}: --${flag} ${JSON.stringify(text)} is not a number of at least ${min}`);
  }
  return value;
}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** "90" (seconds), "90s", "30m", "1h30m", "500ms" into milliseconds; null when malformed. */
export function parseDurationMs(text: string): number | null {
  const trimmed = text.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed) * 1000;
  const parts = [...trimmed.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== trimmed) return null;
  return parts.reduce((total, [, amount, unit]) => total + Number(amount) * UNIT_MS[unit!]!, 0);
}

export function durationFlag(command: string, values: Parsed['values'], flag: string, fallbackMs: number): number {
  const text = stringFlag(values, flag);
  if (text === undefined) return fallbackMs;
  const ms = parseDurationMs(text);
  if (ms === null || ms <= 0) {
    throw usageError(`${command}: --${flag} ${JSON.stringify(text)} is not a duration such as 90s, 30m or 1h30m`);
  }
  return ms;
}

/** "1h30m" style, for messages and progress. */
export function formatDuration(ms: number): string {
  const totalSeconds = Math.round(ms / 1000);
  const h = Math.floor(totalSeconds / 3600);
  const m = Math.floor((totalSeconds % 3600) / 60);
  const s = totalSeconds % 60;
  if (h > 0) return `${h}h${String(m).padStart(2, '0')}m`;
  if (m > 0) return `${m}m${String(s).padStart(2, '0')}s`;
  return `${s}s`;
}
