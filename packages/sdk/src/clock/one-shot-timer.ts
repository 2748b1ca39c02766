import type { Clock, TimerHandle } from '../ports/clock.js';

/** One pending timeout on the injected clock; scheduling again replaces it. */
export class OneShotTimer {
  private handle: TimerHandle | null = null;

  constructor(private readonly clock: Clock) {}

  schedule(delayMs: number, callback: () => void): void {
    this.clear();
    this.handle = this.clock.setTimeout(() => {
      this.handle = null;
      callback();
    }, delayMs);
  }

  clear(): void {
    if (this.handle !== null) this.clock.clearTimeout(this.handle);
    this.handle = null;
  }
}
