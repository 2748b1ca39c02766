/**
 * What a callback delivers (fixes, errors, events), kept in order, with promises for "enough has
 * arrived". Each delivery checks the waiters itself: a test waits for exactly the thing it
 * asserts, never on a timer. A delivery that never comes fails the test at its timeout.
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

  /** Resolves once `holds` is true of what has arrived (at once if it already is). */
  when(holds: (items: readonly T[]) => boolean): Promise<void> {
    return new Promise((resolve) => {
      const check = () => {
        if (!holds(this.items)) return false;
        resolve();
        return true;
      };
      if (!check()) this.waiters.add(check);
    });
  }

  /** Resolves with the `count`-th item once it has arrived. */
  async count(count: number): Promise<T> {
    await this.when((items) => items.length >= count);
    return this.items[count - 1]!;
  }

  /** Resolves with the first item that matches, once one has arrived. */
  async some(matches: (item: T) => boolean): Promise<T> {
    await this.when((items) => items.some(matches));
    return this.items.find(matches)!;
  }
}

/** A flag a callback sets (a source's end), with a promise for it. */
export class Signal {
  private done = false;
  private wake!: () => void;
  readonly happened = new Promise<void>((resolve) => (this.wake = resolve));

  /** The callback to hand to the code under test. */
  readonly set = (): void => {
    this.done = true;
    this.wake();
  };

  get isSet(): boolean {
    return this.done;
  }
}
