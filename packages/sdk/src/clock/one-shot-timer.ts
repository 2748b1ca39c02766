import type { Clock, TimerHandle } from '../ports/clock.js';

/** One pending timeout on the injected clock; scheduling again replaces it. */
export class OneShotTimer {
  private handle: TimerHandle | null = null;
  /** When the pending timeout fires, on the clock (null: none pending). */
  private dueAt: number | null = null;

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
    this.dueAt = this.clock.now() + delayMs;
    this.handle = this.clock.setTimeout(() => {
      this.handle = null;
      this.dueAt = null;
      callback();
    }, delayMs);
    if (this.options.background) (this.handle as { unref?: () => void } | null)?.unref?.();
  }

  /**
   * Fires no later than `delayMs` from now: a pending timeout due by then is kept (with its
   * callback, which must then check whether it is early and schedule again). A deadline pushed back
   * on every event (a stop timer, each location) then sets one timer per deadline, not one per event.
   */
  scheduleBy(delayMs: number, callback: () => void): void {
    if (this.dueAt !== null && this.dueAt <= this.clock.now() + delayMs) return;
    this.schedule(delayMs, callback);
  }

  clear(): void {
    if (this.handle !== null) this.clock.clearTimeout(this.handle);
    this.handle = null;
    this.dueAt = null;
  }
}
