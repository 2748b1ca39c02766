// How much of the time retention takes while a backlog lasts (issue 33): what ingest leaves over,
// read from the event loop (SQLite deletes and commits run on it) and from the time ingest
// transactions spend committing (PostgreSQL's deletes run in the database); a tenth while ingest
// is saturated. The bench (bench/retention.mjs) measures what these shares give.
import { describe, expect, it } from 'vitest';
import { DUTY_CEILING, DUTY_FLOOR, retentionDuty } from '../src/retention/duty.js';

describe('retention duty', () => {
  it('takes a tenth while every ingest slot is taken, whatever else it sees', () => {
    expect(retentionDuty({ saturated: true, committing: 0.1 }, { busy: 0.3, retention: 0 })).toBe(DUTY_FLOOR);
  });

  it("takes what ingest leaves of the event loop, between a tenth and a half (SQLite's case)", () => {
    // Ingest uses half the loop: retention may take 0.45 (0.95 together), not a fixed tenth.
    expect(retentionDuty({ saturated: false, committing: 0.2 }, { busy: 0.6, retention: 0.1 })).toBeCloseTo(0.45);
    // Ingest uses it all: the floor, so ingest keeps about 90% of its rate.
    expect(retentionDuty({ saturated: false, committing: 0.2 }, { busy: 1, retention: 0.1 })).toBe(DUTY_FLOOR);
    // The loop busy only with retention itself: the ceiling, so pages still answer promptly.
    expect(retentionDuty({ saturated: false, committing: 0 }, { busy: 0.5, retention: 0.5 })).toBe(DUTY_CEILING);
  });

  it("takes what ingest's transactions leave of the database's time when the loop is idle (PostgreSQL's case)", () => {
    expect(retentionDuty({ saturated: false, committing: 0.7 }, { busy: 0.1, retention: 0 })).toBeCloseTo(0.25);
    expect(retentionDuty({ saturated: false, committing: 0.95 }, { busy: 0.1, retention: 0 })).toBe(DUTY_FLOOR);
    expect(retentionDuty({ saturated: false, committing: 0 }, { busy: 0.05, retention: 0 })).toBe(DUTY_CEILING);
  });
});
