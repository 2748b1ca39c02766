import type { LocationInput, LocationProvider } from '@waypost/node';

/** A location provider driven by the test: fixes and failures on demand, starts and stops counted. */
export function scriptedProvider() {
  let onFix: ((fix: LocationInput) => void) | null = null;
  let onError: ((error: Error) => void) | null = null;
  const counts = { started: 0, stopped: 0 };
  const provider: LocationProvider = {
    name: 'script',
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
    fix: (input: LocationInput) => onFix?.(input),
    fail: () => onError?.(new Error('receiver unplugged')),
  };
}
