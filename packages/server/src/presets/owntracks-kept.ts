import { isObject } from './record-parts.js';

/**
 * Keys of an OwnTracks message whose values are credentials: an exported `configuration` carries
 * the endpoint's `password`, the TLS `passphrase`, `encryptionKey`, API keys and `httpHeaders`.
 */
const SECRET_KEY = /pass|secret|token|cookie|headers?$|pkcs|crt|key$|^auth$/i;

/** Nesting kept of a message (deeper values are replaced): the raw JSON is bounded anyway. */
const MAX_DEPTH = 8;

/**
 * What is kept in quarantine of an OwnTracks message that is no location (transition, waypoint,
 * configuration, card...): the message as sent, except the values of credential keys, replaced by
 * "[redacted]" at any depth, so that a configuration dump never puts a password in the dashboard.
 */
export function keptMessage(value: unknown, depth = 0): unknown {
  if (Array.isArray(value)) return depth >= MAX_DEPTH ? '[deeper]' : value.map((item) => keptMessage(item, depth + 1));
  if (!isObject(value)) return value;
  if (depth >= MAX_DEPTH) return '[deeper]';
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [key, item] of Object.entries(value))
    out[key] = SECRET_KEY.test(key) ? '[redacted]' : keptMessage(item, depth + 1);
  return out;
}
