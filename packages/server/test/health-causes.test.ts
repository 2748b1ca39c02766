// Every silence named from what the server really sees (issue 39), as tables of the expected
// names written here (not imported from the code): a current report's failure and hold, a quiet
// device's last report (the low-battery boundary on both sides), a return's report (its failure
// class), and the server's own refusals by status.
import type { HealthReport } from '@waypost/sdk/internal';
import { describe, expect, it } from 'vitest';
import { decideDeviceState, type HealthInputs, type LastRecord, type NamedState } from '../src/health/decide-state.js';
import { refusalCause } from '../src/health/refusal-cause.js';
import { explainReturn } from '../src/health/silent-period.js';

const NOW = Date.UTC(2026, 11, 1, 12);
const MIN = 60_000;
const SILENT_AFTER = 30 * MIN;

function uploaded(agoMs: number, report: HealthReport | null, lastRecord: LastRecord | null = null): HealthInputs {
  return {
    now: NOW,
    status: 'active',
    lastSeen: NOW - agoMs,
    report,
    reportAt: report ? NOW - agoMs : null,
    lastRecord,
    silentAfterMs: SILENT_AFTER,
  };
}
const healthy: HealthReport = { tracking: true, motion: { moving: true }, network: 'wifi', wifiOnly: false };
const with_ = (extra: HealthReport): HealthReport => ({ ...healthy, ...extra });
const failed = (cls: NonNullable<HealthReport['failure']>['class'], status?: number): HealthReport =>
  with_({ failure: { class: cls, ago: 20, ...(status ? { status } : {}) } });
const battery = (level: number, charging = false): HealthReport => with_({ battery: { level, charging } });
const records = (level: number | null, moving: boolean | null = true): LastRecord => ({
  at: NOW - 3 * 3600_000,
  moving,
  battery: level === null ? null : { level, charging: false },
});

describe('a report that arrived with an upload names the device at once, for certain', () => {
  it.each<[string, HealthReport, string, string]>([
    ['its uploads were refused as a whole (4xx): client errors', failed('client', 415), 'failing', 'client-errors'],
    ['its uploads met 5xx: server errors', failed('server', 503), 'failing', 'server-errors'],
    ['its uploads timed out: timeouts, not no network', failed('timeout'), 'failing', 'timeouts'],
    ['its uploads found no network', failed('network'), 'waiting', 'no-network'],
    ['told to wait (Retry-After)', failed('throttled', 503), 'waiting', 'retry-after'],
    ['its credentials refused', failed('auth', 401), 'failing', 'auth-refused'],
    ['its records refused', failed('refused', 422), 'failing', 'records-refused'],
    ['held for Wi-Fi', with_({ hold: { kind: 'wifi' } }), 'waiting', 'wifi-only'],
    [
      'held offline, an old timeout behind it',
      with_({ hold: { kind: 'offline' }, failure: { class: 'timeout', ago: 90 } }),
      'waiting',
      'no-network',
    ],
    ['still for an hour', with_({ motion: { moving: false, for: 3600 } }), 'parked', 'stationary'],
    ['on a low battery, still uploading', battery(0.05), 'live', 'reporting'],
  ])('%s: %s / %s', (_why, report, state, cause) => {
    expect(decideDeviceState(uploaded(MIN, report))).toMatchObject({ state, cause, inferred: false });
  });
});

describe('a quiet device is named from what it said last (likely), the battery boundary at 10 %', () => {
  it.each<[string, HealthInputs, string, string]>([
    ['battery at 10 %, not charging', uploaded(40 * MIN, battery(0.1)), 'stopped', 'battery-dead'],
    ['battery at 11 %, not charging', uploaded(40 * MIN, battery(0.11)), 'waiting', 'no-network'],
    ['battery at 5 %, charging', uploaded(40 * MIN, battery(0.05, true)), 'waiting', 'no-network'],
    ['last said its uploads timed out', uploaded(40 * MIN, failed('timeout')), 'failing', 'timeouts'],
    ['last said 4xx', uploaded(40 * MIN, failed('client', 404)), 'failing', 'client-errors'],
    [
      'Wi-Fi only, last seen on Wi-Fi',
      uploaded(40 * MIN, with_({ wifiOnly: true, network: 'wifi' })),
      'waiting',
      'wifi-only',
    ],
    [
      'Wi-Fi only, last seen on Ethernet',
      uploaded(40 * MIN, with_({ wifiOnly: true, network: 'ethernet' })),
      'waiting',
      'wifi-only',
    ],
    ['a tracker whose last record had 10 %', uploaded(3 * 3600_000, null, records(0.1)), 'stopped', 'battery-dead'],
    ['a tracker whose last record had 11 %', uploaded(3 * 3600_000, null, records(0.11)), 'silent', 'unexplained'],
  ])('%s: %s / %s', (_why, input, state, cause) => {
    expect(decideDeviceState(input)).toMatchObject({ state, cause, inferred: true });
  });
});

describe('a return explains the silence from its report', () => {
  const quiet: NamedState = { state: 'waiting', cause: 'no-network', inferred: true, since: NOW - 40 * MIN };
  it.each<[string, HealthReport, string, boolean]>([
    [
      'a gateway answered 503 meanwhile (fail=server)',
      { failure: { class: 'server', ago: 5, status: 503 }, up: 7200 },
      'server-errors',
      false,
    ],
    [
      '503 with Retry-After (fail=throttled)',
      { failure: { class: 'throttled', ago: 5, status: 503 }, up: 7200 },
      'retry-after',
      false,
    ],
    [
      'a gateway answered 422 (fail=refused)',
      { failure: { class: 'refused', ago: 5, status: 422 }, up: 7200 },
      'records-refused',
      false,
    ],
    [
      '4xx meanwhile (fail=client)',
      { failure: { class: 'client', ago: 5, status: 404 }, up: 7200 },
      'client-errors',
      false,
    ],
    [
      'credentials refused meanwhile (fail=auth)',
      { failure: { class: 'auth', ago: 5, status: 407 }, up: 7200 },
      'auth-refused',
      false,
    ],
    ['uploads timed out (fail=timeout)', { failure: { class: 'timeout', ago: 5 }, up: 7200 }, 'timeouts', false],
    ['no network (fail=network)', { failure: { class: 'network', ago: 5 }, up: 7200 }, 'no-network', false],
    ['a hold that ended (was=wifi)', { was: { kind: 'wifi', for: 2400, ago: 1 }, up: 7200 }, 'wifi-only', false],
    [
      'killed on a healthy battery, started again (up)',
      { up: 30, battery: { level: 0.8, charging: false } },
      'app-terminated',
      false,
    ],
    [
      'started again, its first failures since (up wins)',
      { up: 30, failure: { class: 'server', ago: 5 } },
      'app-terminated',
      false,
    ],
    ['nothing it said explains it', { up: 7200, queued: 4 }, 'no-network', true],
  ])('%s: %s', (_why, report, cause, inferred) => {
    expect(explainReturn(quiet, report, NOW, SILENT_AFTER)).toEqual({ from: quiet.since, to: NOW, cause, inferred });
  });
});

describe("the server's own refusals, by status", () => {
  it.each<[number, boolean, string]>([
    [400, false, 'records-refused'],
    [422, false, 'records-refused'],
    [401, false, 'auth-refused'],
    [403, false, 'auth-refused'],
    [413, false, 'client-errors'],
    [415, false, 'client-errors'],
    [404, false, 'client-errors'],
    [429, true, 'retry-after'],
    [503, true, 'retry-after'],
    [429, false, 'server-errors'],
    [503, false, 'server-errors'],
    [500, false, 'server-errors'],
  ])('%i (Retry-After %s): %s', (status, retryAfter, cause) => {
    expect(refusalCause(status, retryAfter)).toBe(cause);
  });
});
