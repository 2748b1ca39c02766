import type { KeyValueStore } from '../ports/store.js';
import { KEPT_FLAT_KEYS } from './anchor-keys.js';
import { applyConfigInput } from './apply.js';
import { defaultConfig } from './fields.js';
import type { Config } from './types.js';

const KEY = 'config';

export interface StoredConfig {
  config: Config;
  ignored: Record<string, unknown>;
}

/**
 * Restores the configuration saved by the last ready()/setConfig(). It is re-validated on the way
 * in, so a file written by an older version (or edited by hand) can never smuggle in a bad value:
 * what does not validate falls back to the defaults.
 */
export async function loadConfig(kv: KeyValueStore): Promise<{ stored: StoredConfig; problem: string | null }> {
  const text = await kv.get(KEY);
  if (!text) return { stored: { config: defaultConfig(), ignored: {} }, problem: null };
  try {
    const saved = JSON.parse(text) as { config: unknown; ignored?: Record<string, unknown> };
    const applied = applyConfigInput(defaultConfig(), saved.config, keptByV5Name(saved.ignored));
    return { stored: { config: applied.config, ignored: applied.ignored }, problem: null };
  } catch (error) {
    return { stored: { config: defaultConfig(), ignored: {} }, problem: (error as Error).message };
  }
}

export function saveConfig(kv: KeyValueStore, stored: StoredConfig): Promise<void> {
  return kv.set(KEY, JSON.stringify(stored));
}

/** The saved configuration exactly as stored, to notice a change written by another process. */
export function readConfigText(kv: KeyValueStore): Promise<string | undefined> {
  return kv.get(KEY);
}

/** Parses saved text onto `base`, validating every field; throws a WaypostError when it does not validate. */
export function parseConfigText(text: string, base: Config, ignoredBase: Record<string, unknown>) {
  const saved = JSON.parse(text) as { config: unknown; ignored?: Record<string, unknown> };
  return applyConfigInput(base, saved.config, { ...ignoredBase, ...keptByV5Name(saved.ignored) });
}

/**
 * Kept anchor keys by their v5 name (`geolocation.distanceFilter`). A database written before
 * kept keys were named so holds flat names (`distanceFilter`); they are renamed on the way in.
 */
function keptByV5Name(ignored: Record<string, unknown> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(ignored ?? {})) {
    const kept = key.includes('.') ? undefined : KEPT_FLAT_KEYS.get(key);
    out[kept ? `${kept.group}.${key}` : key] = value;
  }
  return out;
}
