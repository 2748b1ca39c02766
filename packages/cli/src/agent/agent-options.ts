import { accessSync, constants, readFileSync } from 'node:fs';
import { applyConfigInput, defaultConfig, nearestKey } from '@waypost/sdk/internal';
import { isWaypostError, parseSource, SourceError, type ConfigInput, type SourceSpec } from '@waypost/node';
import { durationFlag, stringFlag, type Parsed } from '../args.js';
import { usageError } from '../errors.js';

export const AGENT = 'waypost agent';

/** Below systemd's TimeoutStopSec (30 s in the printed unit), so the agent ends before it is killed. */
export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 10_000;

/**
 * --exit-when-done: how long the agent keeps trying without delivering anything before it gives up
 * (exit 1). Long enough for a server restart or a short outage, short enough for a script to notice.
 */
export const DEFAULT_GIVE_UP_AFTER_MS = 2 * 60_000;

/** A device id longer than this is not a name (the server refuses ids over 200 characters). */
export const MAX_DEVICE_ID_CHARS = 200;

/** A configuration file is small; anything bigger is the wrong file. */
export const MAX_CONFIG_FILE_BYTES = 1024 * 1024;

/** Everything the agent needs, resolved from the command line and the --config file. */
export interface AgentOptions {
  database: string;
  source: SourceSpec;
  sourceText: string;
  /** Files only: 1 = recorded pace, 0 = as fast as possible. */
  replaySpeed: number;
  exitWhenDone: boolean;
  /** --exit-when-done: give up (exit 1) after this long without a delivery. */
  giveUpAfterMs: number;
  /** The device's name on the server (--device-id); default: decided at start (device-identity.ts). */
  deviceId: string | undefined;
  /** After SIGTERM, how long closing may wait for the upload in flight. */
  shutdownTimeoutMs: number;
  /** The SDK configuration (groups or the anchor's flat keys), merged over the saved one. */
  sdk: ConfigInput;
}

/** The agent's own keys in a --config file; every other key is SDK configuration. */
const AGENT_KEYS = ['database', 'source', 'replaySpeed', 'exitWhenDone', 'deviceId'] as const;

function readConfigFile(path: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw usageError(`${AGENT}: --config ${path}: ${(error as Error).message}`);
  }
  if (text.length > MAX_CONFIG_FILE_BYTES)
    throw usageError(`${AGENT}: --config ${path}: over ${MAX_CONFIG_FILE_BYTES} bytes`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw usageError(`${AGENT}: --config ${path} is not valid JSON: ${(error as Error).message}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw usageError(`${AGENT}: --config ${path} must hold a JSON object`);
  }
  return parsed as Record<string, unknown>;
}

/**
 * A top-level key the SDK does not know either, close to one of the agent's own ("deviceid"): the
 * SDK's message could only suggest SDK keys, so the agent's key is named instead.
 */
function agentKeyHint(error: { message: string; key: string | undefined }): string | null {
  const key = error.key;
  if (key === undefined || key.includes('.') || !error.message.includes('unknown configuration key')) return null;
  const nearest = nearestKey(key, AGENT_KEYS);
  return nearest ? `${key}: unknown key. Did you mean ${nearest}?` : null;
}

function typed<T>(file: Record<string, unknown>, key: string, type: string, path: string): T | undefined {
  const value = file[key];
  if (value === undefined) return undefined;
  if (typeof value !== type)
    throw usageError(`${AGENT}: --config ${path}: ${key} must be a ${type}, got ${JSON.stringify(value)}`);
  return value as T;
}

/**
 * Resolves the agent's options: flags win over the --config file. Every problem is a usage error
 * (exit 2) that names the flag or key, including SDK configuration that would not validate,
 * which is checked here before anything is opened.
 */
export function resolveAgentOptions(values: Parsed['values']): AgentOptions {
  const configPath = stringFlag(values, 'config');
  const file = configPath ? readConfigFile(configPath) : {};
  const from = configPath ?? '';
  const sourceText = stringFlag(values, 'source') ?? typed<string>(file, 'source', 'string', from);
  if (!sourceText) throw usageError(`${AGENT}: --source is required (or "source" in --config) (see ${AGENT} --help)`);
  let source: SourceSpec;
  try {
    source = parseSource(sourceText);
  } catch (error) {
    if (error instanceof SourceError) throw usageError(`${AGENT}: --source: ${error.message}`);
    throw error;
  }
  const speedText = stringFlag(values, 'replay-speed');
  const replaySpeed =
    speedText !== undefined ? Number(speedText) : (typed<number>(file, 'replaySpeed', 'number', from) ?? 1);
  if (!Number.isFinite(replaySpeed) || replaySpeed < 0 || (speedText !== undefined && speedText.trim() === '')) {
    throw usageError(
      `${AGENT}: --replay-speed ${JSON.stringify(speedText ?? replaySpeed)} is not a number of at least 0`,
    );
  }
  const exitWhenDone =
    values['exit-when-done'] === true || typed<boolean>(file, 'exitWhenDone', 'boolean', from) === true;
  if (exitWhenDone && source.kind !== 'nmea-file' && source.kind !== 'gpx') {
    throw usageError(`${AGENT}: --exit-when-done needs a file source (nmea-file: or gpx:), not ${sourceText}`);
  }
  if (source.kind === 'gpx' || (source.kind === 'nmea-file' && source.path !== '-')) {
    try {
      accessSync(source.path, constants.R_OK);
    } catch (error) {
      throw usageError(`${AGENT}: --source ${sourceText}: ${(error as Error).message}`);
    }
  }
  const deviceId = stringFlag(values, 'device-id') ?? typed<string>(file, 'deviceId', 'string', from);
  if (deviceId !== undefined && (deviceId.trim() === '' || deviceId.length > MAX_DEVICE_ID_CHARS)) {
    throw usageError(`${AGENT}: --device-id must be 1 to ${MAX_DEVICE_ID_CHARS} characters`);
  }
  const sdk: Record<string, unknown> = Object.fromEntries(
    Object.entries(file).filter(([key]) => !(AGENT_KEYS as readonly string[]).includes(key)),
  );
  const url = stringFlag(values, 'url');
  if (url !== undefined) {
    const http = (sdk['http'] ?? {}) as Record<string, unknown>;
    sdk['http'] = { ...(typeof http === 'object' ? http : {}), url };
  }
  try {
    applyConfigInput(defaultConfig(), sdk);
  } catch (error) {
    if (isWaypostError(error))
      throw usageError(
        `${AGENT}: ${configPath ? `--config ${configPath}: ` : ''}${agentKeyHint(error) ?? error.message}`,
      );
    throw error;
  }
  return {
    database: stringFlag(values, 'database') ?? typed<string>(file, 'database', 'string', from) ?? './waypost.db',
    source,
    sourceText,
    replaySpeed,
    exitWhenDone,
    shutdownTimeoutMs: durationFlag(AGENT, values, 'shutdown-timeout', DEFAULT_SHUTDOWN_TIMEOUT_MS),
    giveUpAfterMs: durationFlag(AGENT, values, 'give-up-after', DEFAULT_GIVE_UP_AFTER_MS),
    deviceId,
    sdk: sdk as ConfigInput,
  };
}
