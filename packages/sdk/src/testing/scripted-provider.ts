import type { FixListener, LocationProvider, ProviderErrorListener } from '../ports/location-provider.js';
import type { LocationInput } from '../records/location.js';

export interface ScriptedProvider {
  provider: LocationProvider;
  /** How many times the engine started and stopped it. */
  counts: { started: number; stopped: number };
  /** Delivers a fix as a source would; resolves when the engine has taken it (recorded it). */
  fix(input: LocationInput): Promise<unknown>;
  /** Reports a failure of the source, as an unplugged receiver would. */
  fail(message?: string): void;
}

/** A location provider driven by the test: fixes and failures on demand, starts and stops counted. */
export function scriptedProvider(name = 'script'): ScriptedProvider {
  let onFix: FixListener | null = null;
  let onError: ProviderErrorListener | null = null;
  const counts = { started: 0, stopped: 0 };
  const provider: LocationProvider = {
    name,
    start(fix, error) {
      counts.started++;
      onFix = fix;
      onError = error;
    },
    stop() {
      counts.stopped++;
      onFix = null;
    },
  };
  return {
    provider,
    counts,
    fix: async (input) => onFix?.(input),
    fail: (message = 'receiver unplugged') => onError?.(new Error(message)),
  };
}
