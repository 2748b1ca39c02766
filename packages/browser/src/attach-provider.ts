import type { BackgroundGeolocation, LocationProvider } from '@waypost/sdk';

export interface AttachedProvider {
  /** Starts the provider when tracking is enabled (after ready() resumed tracking, for instance). */
  sync(): void;
  /** Stops it for good (close()). */
  detach(): void;
}

/**
 * Runs a location provider while tracking is enabled: its fixes go to recordLocation(), its errors
 * to the SDK log.
 */
export function attachProvider(bg: BackgroundGeolocation, provider: LocationProvider): AttachedProvider {
  let running = false;
  const start = () => {
    if (running) return;
    running = true;
    const report = (error: Error & { code?: string }) =>
      bg.log.error('Location', `${provider.name ?? 'provider'}: ${error.code ?? ''} ${error.message}`);
    // A provider that throws (or rejects) in start() is reported like any of its errors.
    void Promise.resolve()
      .then(() =>
        // Stopped again before this turn: nothing to start.
        !running
          ? undefined
          : provider.start(
              // The promise lets a source that can wait pace itself (issue 9's port); watchPosition does not wait.
              (fix) =>
                bg
                  .recordLocation(fix)
                  .catch((error: Error) => bg.log.warn('Location', `fix not recorded: ${error.message}`)),
              report,
            ),
      )
      .catch(report);
  };
  const stop = () => {
    if (!running) return;
    running = false;
    void Promise.resolve(provider.stop());
  };
  const subscription = bg.onEnabledChange((enabled) => (enabled ? start() : stop()));
  return {
    sync: () => (bg.tracking.enabled ? start() : stop()),
    detach() {
      subscription.remove();
      stop();
    },
  };
}
