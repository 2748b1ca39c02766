// How much of the time retention takes while a backlog lasts (issue 33): what ingest leaves over,
// read from the event loop (SQLite deletes and commits run on it) and from the share of ingest's
// commit slots in use (PostgreSQL's deletes run in the database); a tenth while ingest is
// saturated. The bench (bench/retention.mjs) measures what these shares give.
import { describe, expect, it, vi } from 'vitest';
import { GroupCommitter } from '../src/ingest/group-commit.js';
import { DUTY_CEILING, DUTY_CEILING_POSTGRES, DUTY_FLOOR, retentionDuty, saturationOf } from '../src/retention/duty.js';

describe('retention duty', () => {
  it('takes a tenth while every ingest slot is taken most of the time, whatever else it sees', () => {
    expect(retentionDuty({ saturated: 1, committing: 0.1 }, { busy: 0.3, retention: 0 })).toBe(DUTY_FLOOR);
    expect(retentionDuty({ saturated: 0.6, committing: 0.1 }, { busy: 0.3, retention: 0 })).toBe(DUTY_FLOOR);
  });

  it('keeps its share through moments of saturation (a fleet at half the rate fills every slot now and then)', () => {
    // Slots full a fifth of the last second, half of their time in use: retention takes what is left.
    const load = { saturated: 0.2, committing: 0.45 };
    expect(retentionDuty(load, { busy: 0.3, retention: 0.2 }, DUTY_CEILING_POSTGRES)).toBeCloseTo(0.5);
  });

  it("takes what ingest leaves of the event loop, between a tenth and a half (SQLite's case)", () => {
    // Ingest uses half the loop: retention may take 0.45 (0.95 together), not a fixed tenth.
    expect(retentionDuty({ saturated: 0, committing: 0.2 }, { busy: 0.6, retention: 0.1 })).toBeCloseTo(0.45);
    // Ingest uses it all: the floor, so ingest keeps about 90% of its rate.
    expect(retentionDuty({ saturated: 0, committing: 0.2 }, { busy: 1, retention: 0.1 })).toBe(DUTY_FLOOR);
    // The loop busy only with retention itself: the ceiling, so pages still answer promptly.
    expect(retentionDuty({ saturated: 0, committing: 0 }, { busy: 0.5, retention: 0.5 })).toBe(DUTY_CEILING);
  });

  it("takes what ingest's transactions leave of the database's time when the loop is idle (PostgreSQL's case)", () => {
    expect(retentionDuty({ saturated: 0, committing: 0.7 }, { busy: 0.1, retention: 0 })).toBeCloseTo(0.25);
    expect(retentionDuty({ saturated: 0, committing: 0.95 }, { busy: 0.1, retention: 0 })).toBe(DUTY_FLOOR);
    expect(retentionDuty({ saturated: 0, committing: 0 }, { busy: 0.05, retention: 0 })).toBe(DUTY_CEILING);
  });

  it('takes more than a half on PostgreSQL when ingest leaves it, its slices blocking nothing of the loop', () => {
    // A fleet at half the server's rate kept its slots about a quarter in use (session 22): 0.7 left.
    const load = { saturated: 0, committing: 0.25 };
    const loop = { busy: 0.5, retention: 0.45 };
    expect(retentionDuty(load, loop)).toBe(DUTY_CEILING);
    expect(retentionDuty(load, loop, DUTY_CEILING_POSTGRES)).toBeCloseTo(0.7);
    // Nothing committing: more than SQLite's ceiling, short of the whole headroom; saturated: the same tenth.
    const idle = { saturated: 0, committing: 0 };
    const idleLoop = { busy: 0.05, retention: 0 };
    expect(retentionDuty(idle, idleLoop, DUTY_CEILING_POSTGRES)).toBeGreaterThan(retentionDuty(idle, idleLoop));
    expect(retentionDuty(idle, idleLoop, DUTY_CEILING_POSTGRES)).toBeLessThan(0.95);
    expect(retentionDuty({ saturated: 0.9, committing: 0.3 }, loop, DUTY_CEILING_POSTGRES)).toBe(DUTY_FLOOR);
  });
});

describe('saturation, as retention reads it', () => {
  it('reads SQLite at the instant and PostgreSQL over the last second', async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    try {
      // Every slot taken for 300 ms of a second, and taken right now.
      const queue = { saturated: true, allSlotsBusyMs: 0 };
      const sqlite = saturationOf('sqlite', queue);
      const postgres = saturationOf('postgres', queue);
      vi.advanceTimersByTime(1000);
      queue.allSlotsBusyMs = 300;
      expect(sqlite()).toBe(1);
      expect(postgres()).toBeCloseTo(0.3);
      // PostgreSQL's 0.3 leaves retention what ingest's slots leave; SQLite's instant, the floor.
      const loop = { busy: 0.3, retention: 0.1 };
      expect(retentionDuty({ saturated: sqlite(), committing: 0.3 }, loop)).toBe(DUTY_FLOOR);
      expect(retentionDuty({ saturated: postgres(), committing: 0.3 }, loop, DUTY_CEILING_POSTGRES)).toBeCloseTo(0.65);
      queue.saturated = false;
      expect(sqlite()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});

/** A committer of one job a group whose commits last until the test releases them, oldest first. */
function heldCommitter(concurrency: number) {
  const release: (() => void)[] = [];
  const committer = new GroupCommitter<string, number>(
    async (jobs) => {
      await new Promise<void>((resolve) => release.push(resolve));
      return jobs.map(() => ({ ok: true as const, value: 1 }));
    },
    { concurrency, maxGroupSize: 1 },
  );
  return { committer, release };
}

describe("ingest's commit slots in use, as retention reads them", () => {
  it('counts the share of the slots busy, not the time any one is: one of four for a second is a quarter', async () => {
    vi.useFakeTimers({ toFake: ['performance', 'setImmediate'] });
    try {
      const { committer, release } = heldCommitter(4);
      const before = committer.busyMs;
      const first = committer.submit('one', 1);
      await vi.advanceTimersByTimeAsync(1000); // one slot of four busy for a second
      expect(committer.busyMs - before).toBeCloseTo(250, 0);
      const second = committer.submit('two', 1);
      await vi.advanceTimersByTimeAsync(1000); // two of four for the next
      expect(committer.busyMs - before).toBeCloseTo(750, 0);
      release.splice(0).forEach((done) => done());
      await Promise.all([first, second]);
      const idle = committer.busyMs;
      await vi.advanceTimersByTimeAsync(1000); // none busy: nothing added
      expect(committer.busyMs).toBeCloseTo(idle, 5);
    } finally {
      vi.useRealTimers();
    }
  });

  it('counts the time every slot was taken, and only that', async () => {
    vi.useFakeTimers({ toFake: ['performance', 'setImmediate'] });
    try {
      const { committer, release } = heldCommitter(2);
      const before = committer.allSlotsBusyMs;
      const jobs = [committer.submit('one', 1)];
      await vi.advanceTimersByTimeAsync(1000); // one slot of two: not all
      expect(committer.allSlotsBusyMs - before).toBeCloseTo(0, 0);
      jobs.push(committer.submit('two', 1));
      await vi.advanceTimersByTimeAsync(400); // both slots taken
      jobs.push(committer.submit('three', 1));
      await vi.advanceTimersByTimeAsync(600); // both taken and one waiting
      expect(committer.allSlotsBusyMs - before).toBeCloseTo(1000, 0);
      release.shift()!(); // the waiting job takes the freed slot: both still taken
      await vi.advanceTimersByTimeAsync(500);
      release.splice(0).forEach((done) => done());
      await vi.advanceTimersByTimeAsync(0);
      release.splice(0).forEach((done) => done());
      await Promise.all(jobs);
      const idle = committer.allSlotsBusyMs;
      expect(idle - before).toBeCloseTo(1500, 0);
      await vi.advanceTimersByTimeAsync(1000); // idle: nothing added
      expect(committer.allSlotsBusyMs).toBeCloseTo(idle, 5);
    } finally {
      vi.useRealTimers();
    }
  });
});
