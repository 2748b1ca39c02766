// The server's naming of a device's state and cause (issue 31): a pure decision over what it holds
// (status, last upload, newest health report, newest record), one rule per line.
import type { HealthReport } from '@waypost/sdk/internal';
import { describe, expect, it } from 'vitest';
import { CAUSES, decideDeviceState, type HealthInputs, type LastRecord } from '../src/health/decide-state.js';

const NOW = Date.UTC(2026, 10, 26, 12);
const MIN = 60_000;
const SILENT_AFTER = 30 * MIN;

/** A device that uploaded `agoMs` ago with `report` (received with that upload), or records only. */
function inputs(agoMs: number, report: HealthReport | null, lastRecord: LastRecord | null = null): HealthInputs {
  const at = NOW - agoMs;
  return {
    now: NOW,
    status: 'active',
    lastSeen: at,
    report,
    reportAt: report ? at : null,
    lastRecord,
    silentAfterMs: SILENT_AFTER,
  };
}

const moving: HealthReport = { tracking: true, motion: { moving: true }, clock: Math.floor(NOW / 1000) };
const r = (extra: HealthReport): HealthReport => ({ ...moving, ...extra });

describe('decideDeviceState', () => {
  it.each<[string, HealthInputs, string, string, boolean]>([
    ['reporting, moving', inputs(MIN, moving), 'live', 'reporting', false],
    ['stationary', inputs(MIN, r({ motion: { moving: false, for: 600 } })), 'parked', 'stationary', false],
    ['tracking stopped', inputs(MIN, r({ tracking: false })), 'stopped', 'tracking-stopped', false],
    [
      'auth refused',
      inputs(MIN, r({ failure: { class: 'auth', ago: 10, status: 401 } })),
      'failing',
      'auth-refused',
      false,
    ],
    [
      'a request with revoked credentials seen after its last accepted upload (the server saw it)',
      { ...inputs(40 * MIN, moving), refused: { at: NOW - MIN, since: NOW - 20 * MIN } },
      'failing',
      'auth-refused',
      false,
    ],
    [
      'refused, then it stopped trying for longer than the silence threshold',
      { ...inputs(80 * MIN, moving), refused: { at: NOW - 40 * MIN, since: NOW - 60 * MIN } },
      'failing',
      'auth-refused',
      true,
    ],
    [
      'refused once, accepted since (registered again): the refusal is over',
      { ...inputs(MIN, moving), refused: { at: NOW - 5 * MIN, since: NOW - 5 * MIN } },
      'live',
      'reporting',
      false,
    ],
    [
      'records refused',
      inputs(MIN, r({ failure: { class: 'refused', ago: 10 } })),
      'failing',
      'records-refused',
      false,
    ],
    ['server errors', inputs(MIN, r({ failure: { class: 'server', ago: 10 } })), 'failing', 'server-errors', false],
    [
      'told to wait, back after the hold',
      inputs(MIN, r({ failure: { class: 'throttled', ago: 300, status: 503 } })),
      'waiting',
      'retry-after',
      false,
    ],
    [
      'a Retry-After hold',
      inputs(MIN, r({ hold: { kind: 'retry-after', for: 900 } })),
      'waiting',
      'retry-after',
      false,
    ],
    ['Wi-Fi only on cellular', inputs(MIN, r({ hold: { kind: 'wifi' } })), 'waiting', 'wifi-only', false],
    ['autoSync off', inputs(MIN, r({ hold: { kind: 'autosync-off' } })), 'waiting', 'autosync-off', false],
    [
      'a hold outranks an old timeout',
      inputs(MIN, r({ hold: { kind: 'offline' }, failure: { class: 'timeout', ago: 5 } })),
      'waiting',
      'no-network',
      false,
    ],
    ['permission denied', inputs(MIN, r({ provider: 'denied' })), 'source-lost', 'permission-denied', false],
    ['provider off', inputs(MIN, r({ provider: 'disabled' })), 'source-lost', 'provider-off', false],
    ['no fix', inputs(MIN, r({ provider: 'nofix' })), 'source-lost', 'no-fix', false],
    [
      'a clock an hour ahead',
      inputs(MIN, r({ clock: Math.floor((NOW - MIN + 3600_000) / 1000) })),
      'live',
      'clock-off',
      false,
    ],
    [
      'a clock 2 minutes off is fine',
      inputs(MIN, r({ clock: Math.floor((NOW + MIN) / 1000) })),
      'live',
      'reporting',
      false,
    ],
    // Quiet beyond silentAfter: the last report is older than the silence, so all is inferred.
    [
      'quiet, last said Wi-Fi only on Wi-Fi',
      inputs(40 * MIN, r({ wifiOnly: true, network: 'wifi' })),
      'waiting',
      'wifi-only',
      true,
    ],
    [
      'quiet, last said nothing wrong',
      inputs(40 * MIN, r({ wifiOnly: false, network: 'wifi' })),
      'waiting',
      'no-network',
      true,
    ],
    [
      'quiet, battery nearly empty',
      inputs(40 * MIN, r({ battery: { level: 0.04, charging: false } })),
      'stopped',
      'battery-dead',
      true,
    ],
    [
      'quiet, low but charging',
      inputs(40 * MIN, r({ battery: { level: 0.04, charging: true } })),
      'waiting',
      'no-network',
      true,
    ],
    [
      'quiet in a Retry-After hold',
      inputs(40 * MIN, r({ hold: { kind: 'retry-after', for: 3600 } })),
      'waiting',
      'retry-after',
      true,
    ],
    ['quiet after stopping', inputs(40 * MIN, r({ tracking: false })), 'stopped', 'tracking-stopped', true],
    // Trackers without reports: their records.
    [
      'records only, moving',
      inputs(MIN, null, { at: NOW - MIN, moving: true, battery: null }),
      'live',
      'reporting',
      true,
    ],
    [
      'records only, still',
      inputs(MIN, null, { at: NOW - MIN, moving: false, battery: null }),
      'parked',
      'stationary',
      true,
    ],
    [
      'records only, quiet and still',
      inputs(3 * 3600_000, null, { at: NOW - 3 * 3600_000, moving: false, battery: null }),
      'parked',
      'stationary',
      true,
    ],
    [
      'records only, quiet, battery low',
      inputs(3 * 3600_000, null, { at: 0, moving: true, battery: { level: 0.05, charging: false } }),
      'stopped',
      'battery-dead',
      true,
    ],
    [
      'records only, quiet, nothing known',
      inputs(3 * 3600_000, null, { at: 0, moving: true, battery: null }),
      'silent',
      'unexplained',
      true,
    ],
    ['never uploaded', { ...inputs(0, null), lastSeen: null }, 'silent', 'unexplained', true],
    ['blocked', { ...inputs(MIN, moving), status: 'blocked' }, 'failing', 'device-blocked', false],
    ['deleted', { ...inputs(MIN, moving), status: 'deleted' }, 'stopped', 'device-deleted', false],
  ])('%s: %s / %s', (_name, input, state, cause, inferred) => {
    expect(decideDeviceState(input)).toMatchObject({ state, cause, inferred });
  });

  it('since: when the device says it began (motion, failure), else when it said so', () => {
    expect(decideDeviceState(inputs(MIN, r({ motion: { moving: false, for: 600 } }))).since).toBe(NOW - MIN - 600_000);
    expect(decideDeviceState(inputs(MIN, r({ failure: { class: 'auth', ago: 30 } }))).since).toBe(NOW - MIN - 30_000);
    expect(decideDeviceState(inputs(40 * MIN, moving)).since).toBe(NOW - 40 * MIN);
  });

  it('every cause names one of the seven states', () => {
    expect(new Set(Object.values(CAUSES))).toEqual(
      new Set(['live', 'parked', 'waiting', 'failing', 'source-lost', 'stopped', 'silent']),
    );
  });
});
