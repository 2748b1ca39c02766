import type { Clock, TimerHandle } from '../ports/clock.js';

/** One pending timeout on the injected clock; scheduling again replaces it. */
export class OneShotTimer {
  private handle: TimerHandle | null = null;

  /**
   * A `background` timer does not keep a process alive on its own (Node's unref, where the clock's
   * handles have it): upkeep such as retention must not stop a script from exiting.
   */
  constructor(
    private readonly clock: Clock,
    private readonly options: { background?: boolean } = {},
  ) {}

  schedule(delayMs: number, callback: () => void): void {
    this.clear();
    this.handle = this.clock.setTimeout(() => {
      this.handle = null;
      callback();
    }, delayMs);
    if (this.options.background) (this.handle as { unref?: () => void } | null)?.unref?.();
  }

  clear(): void {
    if (this.handle !== null) this.clock.clearTimeout(this.handle);
    this.handle = null;
  }
}
