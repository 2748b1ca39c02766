import type { Clock, TimerHandle } from '../ports/clock.js';

interface Timer {
  id: number;
  due: number;
  callback: () => void;
}

/** More timers than this due at one instant is a loop, not a schedule. */
const MAX_TIMERS_PER_INSTANT = 100_000;

/** Waits for the work a fired timer started: an engine's idle(), for instance. */
export type Settler = () => Promise<void>;

/**
 * A clock that moves only when told to. `advance(ms)` fires every timer that falls due, in order
 * of due time (then of creation), and after each one waits for the work it started before the
 * next one fires, so a run of timers behaves as it would in real time, the same on every run.
 *
 * What "the work it started" is, the clock cannot see by itself: whoever runs work on it says so
 * with settleWith() (the sdk's test kit registers the engine's idle()). Promise chains are always
 * waited for: one macrotask turn drains the whole microtask queue, and those over in-memory doubles
 * or a synchronous database complete in it. Nothing counts event-loop turns: work that waits on
 * real I/O (a socket) is awaited through a settler or by the caller (`await bg.idle()`).
 */
export class ManualClock implements Clock {
  private time: number;
  private timers: Timer[] = [];
  private nextId = 1;
  private readonly settlers = new Set<Settler>();

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

  /** When the next timer falls due; null when none is pending. */
  get nextDue(): number | null {
    return this.timers.length === 0 ? null : Math.min(...this.timers.map((t) => t.due));
  }

  /**
   * advance() awaits `settler` after every timer it fires (and once at the end). Returns the
   * function that unregisters it (an engine that closed).
   */
  settleWith(settler: Settler): () => void {
    this.settlers.add(settler);
    return () => void this.settlers.delete(settler);
  }

  async advance(ms: number): Promise<void> {
    const target = this.time + ms;
    await this.settle();
    // Timers that keep re-arming at the same instant would make time stand still for ever: a
    // bounded number fire per instant, then advance() fails, naming it, instead of hanging.
    let atThisInstant = 0;
    for (;;) {
      const next = this.timers.filter((t) => t.due <= target).sort((a, b) => a.due - b.due || a.id - b.id)[0];
      if (!next) break;
      atThisInstant = next.due === this.time ? atThisInstant + 1 : 1;
      if (atThisInstant > MAX_TIMERS_PER_INSTANT) {
        throw new Error(
          `ManualClock.advance(${ms}): more than ${MAX_TIMERS_PER_INSTANT} timers fired at ${new Date(this.time).toISOString()} ` +
            'without time moving (a timer that re-arms itself with no delay?)',
        );
      }
      this.timers = this.timers.filter((t) => t !== next);
      this.time = next.due;
      next.callback();
      await this.settle();
    }
    this.time = target;
    await this.settle();
  }

  /** Waits for the work timers started: the microtask queue, then every registered settler. */
  async settle(): Promise<void> {
    await drainMicrotasks();
    for (const settler of [...this.settlers]) await settler();
    await drainMicrotasks();
  }
}

/**
 * Every promise reaction already queued runs, and those they queue: the microtask queue is emptied
 * before the event loop takes the next macrotask.
 */
export function drainMicrotasks(): Promise<void> {
  // setImmediate where the platform has it (Node): the same guarantee without setTimeout's 1 ms.
  const immediate = (globalThis as { setImmediate?: (callback: () => void) => unknown }).setImmediate;
  return new Promise<void>((resolve) => (immediate ? immediate(resolve) : globalThis.setTimeout(resolve, 0)));
}
