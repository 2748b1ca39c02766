import { LOG_LEVELS } from '../config/device-fields.js';
import type { LogLevelName } from '../config/types.js';

export const LogLevel = { OFF: 0, ERROR: 1, WARNING: 2, INFO: 3, DEBUG: 4, VERBOSE: 5 } as const satisfies Record<
  LogLevelName,
  number
>;

export function levelName(level: number): LogLevelName {
  return LOG_LEVELS[level] ?? 'INFO';
}
