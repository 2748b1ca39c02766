import { jsonProblem } from '../records/json-bounds.js';

/**
 * Reads `background_geolocation` from a response body (spec 4.2, DESIGN 4). Its value is one
 * command `"stop"` / `["stop"]` / `["changePace", true]`, or a list of them
 * `[["setConfig", {...}], ["start"], "destroyLog"]`.
 */
export interface RemoteCommand {
  name: string;
  args: unknown[];
}

export interface ParsedCommands {
  commands: RemoteCommand[];
  /** Set when the key is present but its value cannot be read as commands. */
  error: string | null;
}

export const REMOTE_KEY = 'background_geolocation';

/** Bodies larger than this are not parsed for commands: a server sending megabytes is broken. */
export const MAX_COMMAND_BODY_CHARS = 256 * 1024;

const NONE: ParsedCommands = { commands: [], error: null };

function toCommand(item: unknown): RemoteCommand | string {
  if (typeof item === 'string') return { name: item, args: [] };
  if (Array.isArray(item) && typeof item[0] === 'string') return { name: item[0], args: item.slice(1) };
  return `not a command: ${JSON.stringify(item).slice(0, 100)}`;
}

export function parseRemoteCommands(text: string): ParsedCommands {
  if (!text.includes(REMOTE_KEY)) return NONE;
  if (text.length > MAX_COMMAND_BODY_CHARS) {
    return { commands: [], error: `response body of ${text.length} characters is too large to read commands from` };
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { commands: [], error: 'response body is not JSON' };
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body) || !Object.hasOwn(body, REMOTE_KEY)) return NONE;
  const value = (body as Record<string, unknown>)[REMOTE_KEY];
  // Commands and their arguments are bounded before anything walks them recursively.
  const problem = jsonProblem(value, { maxChars: MAX_COMMAND_BODY_CHARS });
  if (problem) return { commands: [], error: `${REMOTE_KEY} is not bounded JSON (it has ${problem})` };
  // One tuple starts with its command name; a list holds commands (tuples or bare names).
  const items = typeof value === 'string' || (Array.isArray(value) && typeof value[0] === 'string') ? [value] : value;
  if (!Array.isArray(items)) return { commands: [], error: `${REMOTE_KEY} is not a command or a list of commands` };
  const commands: RemoteCommand[] = [];
  const problems: string[] = [];
  for (const item of items) {
    const command = toCommand(item);
    if (typeof command === 'string') problems.push(command);
    else commands.push(command);
  }
  return { commands, error: problems.length > 0 ? problems.join('; ') : null };
}
