import {
  applyConfigInput,
  checkRemoteCommand,
  COMMAND_TABLE,
  defaultConfig,
  parseGeofence,
  REMOTE_COMMANDS,
  type RemoteCommandName,
} from '@waypost/sdk/internal';
import { badRequest } from '../errors.js';
import { refuseUnknownKeys } from '../http/unknown-keys.js';
import type { Command } from '../store/commands.js';

/** What the dashboard's command form shows: each command and what it takes. */
export const COMMAND_HELP = REMOTE_COMMANDS.map((name) => ({
  name,
  takes: COMMAND_TABLE[name].takes,
  argument: COMMAND_TABLE[name].max > 0,
}));

/** Beyond the table's type check: the SDK's own parsers decide whether a geofence or a configuration is valid. */
function deepCheck(name: RemoteCommandName, args: unknown[]): string | null {
  try {
    if (name === 'setConfig') applyConfigInput(defaultConfig(), args[0]);
    if (name === 'addGeofence') parseGeofence(args[0]);
    if (name === 'addGeofences') (args[0] as unknown[]).forEach((g) => parseGeofence(g));
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

/**
 * A command as the admin API accepts it (`{"command": ["changePace", true]}` or `"stop"`), checked
 * against the SDK's command table, argument types included, so that nothing is queued that the
 * device would reject.
 */
export function parseCommand(body: unknown): Command {
  refuseUnknownKeys(body, ['command'], 'a command');
  const value =
    body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>).command : body;
  const command = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(command) || typeof command[0] !== 'string') {
    throw badRequest('INVALID_COMMAND', 'Send {"command": ["setConfig", {...}]} or {"command": "stop"}');
  }
  const [name, ...args] = command as [string, ...unknown[]];
  if (!(REMOTE_COMMANDS as readonly string[]).includes(name)) {
    throw badRequest('UNKNOWN_COMMAND', `Unknown command "${name}"; known: ${REMOTE_COMMANDS.join(', ')}`);
  }
  const problem = checkRemoteCommand(name, args) ?? deepCheck(name as RemoteCommandName, args);
  if (problem) {
    const takes = COMMAND_TABLE[name as RemoteCommandName].takes;
    throw badRequest('INVALID_COMMAND_ARGUMENT', `${name} ${problem}; it takes ${takes}`);
  }
  return command as Command;
}
