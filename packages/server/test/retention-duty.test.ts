// How much of the time retention takes while a backlog lasts (issue 33): what ingest leaves over on
// SQLite's shared event loop, a tenth while ingest is saturated, and on PostgreSQL a tenth while
// uploads arrive. The bench (bench/retention.mjs) measures what these shares give.
import { describe, expect, it } from 'vitest';
import { DUTY_CEILING, DUTY_FLOOR, retentionDuty } from '../src/retention/duty.js';

const idle = { saturated: false, committedRecently: false };
const arriving = { saturated: false, committedRecently: true };
const saturated = { saturated: true, committedRecently: true };

describe('retention duty', () => {
  it('takes a tenth while every ingest slot is taken, on either backend', () => {
    expect(retentionDuty('sqlite', saturated, { busy: 0.3, retention: 0 })).toBe(DUTY_FLOOR);
    expect(retentionDuty('postgres', saturated, { busy: 0.3, retention: 0 })).toBe(DUTY_FLOOR);
  });

  it('on SQLite takes what ingest leaves of the event loop, between a tenth and a half', () => {
    // Ingest uses half the loop: retention may take 0.45 (0.95 together), not the fixed tenth.
    expect(retentionDuty('sqlite', arriving, { busy: 0.6, retention: 0.1 })).toBeCloseTo(0.45);
    // Ingest uses it all: the floor, so ingest keeps about 90% of its rate.
    expect(retentionDuty('sqlite', arriving, { busy: 1, retention: 0.1 })).toBe(DUTY_FLOOR);
    // The loop busy only with retention itself: the ceiling, so pages still answer promptly.
    expect(retentionDuty('sqlite', idle, { busy: 0.5, retention: 0.5 })).toBe(DUTY_CEILING);
  });

  it('on PostgreSQL goes by whether uploads arrive (its deletes run in the database, not the loop)', () => {
    expect(retentionDuty('postgres', arriving, { busy: 0.05, retention: 0 })).toBe(DUTY_FLOOR);
    expect(retentionDuty('postgres', idle, { busy: 0.05, retention: 0 })).toBe(DUTY_CEILING);
  });
});
