import type { LocationProvider } from '@waypost/node';

export interface ProviderObserver {
  onError: (error: Error & { code?: string }) => void;
  onEnd: () => void;
}

/**
 * The agent's source as it hands it to the engine: the same provider, with the agent told first
 * of what the provider reports (its errors, on stderr with their codes, and the end of a file).
 */
export function observedProvider(provider: LocationProvider, observer: ProviderObserver): LocationProvider {
  return {
    ...(provider.name === undefined ? {} : { name: provider.name }),
    start: (onFix, onError, onEnd) =>
      provider.start(
        onFix,
        (error) => {
          observer.onError(error);
          onError(error);
        },
        () => {
          observer.onEnd();
          onEnd?.();
        },
      ),
    stop: () => provider.stop(),
  };
}
