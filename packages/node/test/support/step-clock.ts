import type { Clock, TimerHandle } from '@waypost/node';

/**
 * A clock for long simulated runs (an hour, a second at a time): `step(ms)` moves time and fires
 * the timers that fall due, synchronously and in order. The test then awaits `bg.idle()` for
 * what they started. ManualClock settles the event loop on every advance, too slow for 3,600 steps.
 */
export class StepClock implements Clock {
  private time: number;
  private timers = new Map<number, { due: number; callback: () => void }>();
  private nextId = 1;

  constructor(start = Date.UTC(2026, 0, 1)) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  setTimeout(callback: () => void, delayMs: number): TimerHandle {
    const id = this.nextId++;
    this.timers.set(id, { due: this.time + Math.max(0, delayMs), callback });
    return id;
  }

  clearTimeout(handle: TimerHandle): void {
    this.timers.delete(handle as number);
  }

  step(ms: number): void {
    const target = this.time + ms;
    for (;;) {
      let next: [number, { due: number; callback: () => void }] | undefined;
      for (const entry of this.timers)
        if (entry[1].due <= target && (!next || entry[1].due < next[1].due)) next = entry;
      if (!next) break;
      this.timers.delete(next[0]);
      this.time = next[1].due;
      next[1].callback();
    }
    this.time = target;
  }
}
