import { within } from '@waypost/sdk/testing';

/** How long, in real time, a test waits for a delivery before failing with what it waited for. */
const ARRIVAL_WAIT_MS = 20_000;

/**
 * What a callback delivers (fixes, errors, events), kept in order, with promises for "enough has
 * arrived". Each delivery checks the waiters itself: a test waits for exactly the thing it
 * asserts, never on a timer. A delivery that never comes fails the wait after ARRIVAL_WAIT_MS,
 * saying what it waited for and how many items came.
 */
export class Arrivals<T> {
  readonly items: T[] = [];
  private waiters = new Set<() => boolean>();

  /** The callback to hand to the code under test. */
  readonly push = (item: T): void => {
    this.items.push(item);
    for (const check of [...this.waiters]) if (check()) this.waiters.delete(check);
  };

  get length(): number {
    return this.items.length;
  }

  /** Resolves once `holds` is true of what has arrived (at once if it already is); bounded. */
  when(holds: (items: readonly T[]) => boolean, what = 'the condition'): Promise<void> {
    let check = () => false;
    const met = new Promise<void>((resolve) => {
      check = () => {
        if (!holds(this.items)) return false;
        resolve();
        return true;
      };
      if (!check()) this.waiters.add(check);
    });
    return within(met, ARRIVAL_WAIT_MS, () => `${what} (${this.items.length} item(s) arrived)`).finally(() =>
      this.waiters.delete(check),
    );
  }

  /** Resolves with the `count`-th item once it has arrived. */
  async count(count: number): Promise<T> {
    await this.when((items) => items.length >= count, `item ${count}`);
    return this.items[count - 1]!;
  }

  /** Resolves with the first item that matches, once one has arrived. */
  async some(matches: (item: T) => boolean): Promise<T> {
    await this.when((items) => items.some(matches), 'an item that matches');
    return this.items.find(matches)!;
  }
}

/** A flag a callback sets (a source's end), with a promise for it. */
export class Signal {
  private done = false;
  private wake!: () => void;
  private readonly set_ = new Promise<void>((resolve) => (this.wake = resolve));

  /** Resolves once it is set; bounded like Arrivals, naming the signal. */
  get happened(): Promise<void> {
    return within(this.set_, ARRIVAL_WAIT_MS, () => 'the signal (a source that ends, say)');
  }

  /** The callback to hand to the code under test. */
  readonly set = (): void => {
    this.done = true;
    this.wake();
  };

  get isSet(): boolean {
    return this.done;
  }
}
