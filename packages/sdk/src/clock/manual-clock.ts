import type { Clock, TimerHandle } from '../ports/clock.js';

interface Timer {
  id: number;
  due: number;
  callback: () => void;
}

/**
 * A clock that moves only when told to. `advance(ms)` fires every timer that falls due, in order,
 * letting promises settle between timers so the async work each one starts completes as it would.
 */
export class ManualClock implements Clock {
  private time: number;
  private timers: Timer[] = [];
  private nextId = 1;

  constructor(start: number | Date = Date.UTC(2026, 0, 1)) {
    this.time = typeof start === 'number' ? start : start.getTime();
  }

  now(): number {
    return this.time;
  }

  setTimeout(callback: () => void, delayMs: number): TimerHandle {
    const timer = { id: this.nextId++, due: this.time + Math.max(0, delayMs), callback };
    this.timers.push(timer);
    return timer.id;
  }

  clearTimeout(handle: TimerHandle): void {
    this.timers = this.timers.filter((timer) => timer.id !== handle);
  }

  /** Timers not yet fired. */
  get pending(): number {
    return this.timers.length;
  }

  async advance(ms: number): Promise<void> {
    const target = this.time + ms;
    for (;;) {
      await settle();
      const next = this.timers.filter((t) => t.due <= target).sort((a, b) => a.due - b.due || a.id - b.id)[0];
      if (!next) break;
      this.timers = this.timers.filter((t) => t !== next);
      this.time = next.due;
      next.callback();
    }
    this.time = target;
    await settle();
  }
}

/** Lets pending promise chains (including I/O that completes promptly) run. */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise<void>((resolve) => globalThis.setTimeout(resolve, 0));
}
