import type { SdkLogger } from '../log/logger.js';
import type { LocationProvider } from '../ports/location-provider.js';
import type { LocationInput } from '../records/location.js';

export interface ProviderRunnerDeps {
  provider: LocationProvider;
  /** Records one fix (the tracker's recordLocation); rejects when tracking stopped meanwhile. */
  record: (fix: LocationInput) => Promise<unknown>;
  logger: SdkLogger;
  /** The source delivered a fix, or failed with a code (the device health report's provider state). */
  onStatus?: (status: { ok: true } | { ok: false; code: string | undefined }) => void;
}

/**
 * Runs the tracking provider while tracking is enabled, the one place that does (every platform
 * hands its provider to the engine). Fixes are recorded one after the other, in order, and a
 * provider that can wait is paced by the promise its fix listener returns (a file replayed as
 * fast as the database takes it); errors go to the SDK log. stop() waits for the fix being
 * recorded, so nothing is recorded once it resolves.
 */
export class ProviderRunner {
  private running = false;
  private recording: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: ProviderRunnerDeps) {}

  /** Starts or stops the provider to match whether tracking is enabled. */
  async follow(enabled: boolean): Promise<void> {
    if (enabled) this.start();
    else await this.stop();
  }

  private start(): void {
    if (this.running) return;
    this.running = true;
    const { provider, logger } = this.deps;
    const name = provider.name ?? 'location provider';
    const report = (error: Error & { code?: string }) => {
      this.deps.onStatus?.({ ok: false, code: error.code });
      logger.error('Location', `${name}: ${error.code ? `${error.code} ` : ''}${error.message}`);
    };
    const onFix = (fix: LocationInput) => {
      this.deps.onStatus?.({ ok: true });
      return (this.recording = this.recording.then(() =>
        this.running
          ? this.deps.record(fix).catch((error: Error) => logger.warn('Location', `fix not recorded: ${error.message}`))
          : undefined,
      ));
    };
    // A provider that throws (or rejects) in start() is reported like any of its errors.
    void Promise.resolve()
      .then(() =>
        this.running ? provider.start(onFix, report, () => logger.info('Location', `${name} ended`)) : undefined,
      )
      .catch(report);
  }

  /** Stops the provider and waits for the fix being recorded. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    await Promise.resolve(this.deps.provider.stop()).catch((error: Error) =>
      this.deps.logger.warn(
        'Location',
        `stopping ${this.deps.provider.name ?? 'the location provider'} failed: ${error.message}`,
      ),
    );
    await this.recording;
  }
}
