/** What one job of a group came to: its own result, or its own error (the others are unaffected). */
export type Outcome<R> = { ok: true; value: R } | { ok: false; error: unknown };

export interface GroupCommitOptions {
  /** Groups committing at once. */
  concurrency: number;
  /** A group takes jobs while their sizes sum to at most this (a larger job goes alone). */
  maxGroupSize: number;
}

interface Pending<J, R> {
  job: J;
  size: number;
  resolve: (value: R) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit: jobs submitted while a transaction is under way are coalesced into the next one,
 * so many small requests share one commit (one fsync on PostgreSQL, one WAL write on SQLite).
 * `runGroup` runs its jobs in ONE transaction and gives each its own outcome; when it throws (the
 * transaction failed as a whole), every job of the group is retried alone, so one bad job never
 * fails another. A job's promise settles only after the commit that holds its writes.
 */
export class GroupCommitter<J, R> {
  private readonly queue: Pending<J, R>[] = [];
  private inFlight = 0;
  private scheduled = false;
  private idleWaiters: (() => void)[] = [];
  /** Commit slots in use integrated over time (slot-ms / slots) up to `changedAt`. */
  private occupiedTotal = 0;
  /** The time every slot was busy up to `changedAt`, in ms. */
  private allBusyTotal = 0;
  private changedAt = performance.now();

  constructor(
    private readonly runGroup: (jobs: J[]) => Promise<Outcome<R>[]>,
    private readonly options: GroupCommitOptions,
  ) {}

  submit(job: J, size: number): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ job, size, resolve, reject });
      this.schedule();
    });
  }

  /** Groups it commits at once. */
  get slots(): number {
    return this.options.concurrency;
  }

  /** Whether it takes no more work at once: every commit slot busy, or jobs waiting for one. */
  get saturated(): boolean {
    return this.queue.length > 0 || this.inFlight >= this.options.concurrency;
  }

  /**
   * The commit slots' use so far, in ms of all slots busy (one slot busy for 1 s of 4 counts 250):
   * how much of its capacity to commit ingest uses. (The wall time with any slot busy read near 1
   * on PostgreSQL at half the server's capacity: one transaction or another is nearly always in
   * flight there, each mostly waiting on round trips, and retention stayed at its floor.)
   */
  get busyMs(): number {
    return this.occupiedTotal + ((performance.now() - this.changedAt) * this.inFlight) / this.options.concurrency;
  }

  /**
   * The time every commit slot has been busy so far, in ms: over a window, the share of it ingest
   * had no slot free. A moment's saturation says little on PostgreSQL, where a fleet at half the
   * server's rate fills all four slots now and then (a fifth of retention's slices saw it, and each
   * rested nine times its work): retention/duty.ts reads the share. Jobs queued while a slot is
   * free do not count: they wait only for the next turn of the event loop (schedule()), and
   * counting them read half of the time as saturated with the slots a quarter in use.
   */
  get allSlotsBusyMs(): number {
    return this.allBusyTotal + (this.allBusy ? performance.now() - this.changedAt : 0);
  }

  private get allBusy(): boolean {
    return this.inFlight >= this.options.concurrency;
  }

  /** Adds the time since the last change at the current occupancy, before inFlight changes. */
  private account(): void {
    const now = performance.now();
    this.occupiedTotal += ((now - this.changedAt) * this.inFlight) / this.options.concurrency;
    if (this.allBusy) this.allBusyTotal += now - this.changedAt;
    this.changedAt = now;
  }

  /** Resolves when nothing is queued or committing (for shutdown). */
  async drain(): Promise<void> {
    if (this.queue.length === 0 && this.inFlight === 0) return;
    await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * Starts groups on the next turn of the event loop rather than at once: the requests whose bodies
   * arrived in the same I/O round then share a transaction even when the database answers
   * synchronously (better-sqlite3), where nothing would otherwise queue up behind a commit.
   */
  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.pump();
    });
  }

  private pump(): void {
    while (this.inFlight < this.options.concurrency && this.queue.length > 0) {
      this.account();
      const group = this.takeGroup();
      this.inFlight += 1;
      void this.commit(group).finally(() => {
        this.account();
        this.inFlight -= 1;
        if (this.queue.length > 0) this.schedule();
        else if (this.inFlight === 0) for (const wake of this.idleWaiters.splice(0)) wake();
      });
    }
  }

  private takeGroup(): Pending<J, R>[] {
    let total = this.queue[0]!.size;
    let count = 1;
    while (count < this.queue.length && total + this.queue[count]!.size <= this.options.maxGroupSize) {
      total += this.queue[count]!.size;
      count += 1;
    }
    return this.queue.splice(0, count);
  }

  private async commit(group: Pending<J, R>[]): Promise<void> {
    let outcomes: Outcome<R>[];
    try {
      outcomes = await this.runGroup(group.map((p) => p.job));
    } catch (error) {
      if (group.length === 1) {
        group[0]!.reject(error);
        return;
      }
      // The shared transaction failed: each job gets a transaction of its own.
      for (const pending of group) await this.commit([pending]);
      return;
    }
    group.forEach((pending, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) pending.resolve(outcome.value);
      else pending.reject(outcome.error);
    });
  }
}
