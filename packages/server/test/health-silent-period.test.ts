// Why a device was quiet, decided once it is back (issue 31): a pure decision over the state named
// while it was quiet and the report it sends on its return, one rule per line.
import type { HealthReport } from '@waypost/sdk/internal';
import { describe, expect, it } from 'vitest';
import type { NamedState } from '../src/health/decide-state.js';
import { explainReturn } from '../src/health/silent-period.js';

const NOW = Date.UTC(2026, 10, 26, 12);
const MIN = 60_000;
const SILENT_AFTER = 10 * MIN;
const quiet = (cause: NamedState['cause'], state: NamedState['state']): NamedState => ({
  state,
  cause,
  inferred: true,
  since: NOW - 40 * MIN,
});
const noNetwork = quiet('no-network', 'waiting');

describe('explainReturn', () => {
  it.each<[string, NamedState | null, HealthReport | null, { cause: string; inferred: boolean } | null]>([
    [
      'a hold that ended: offline',
      noNetwork,
      { was: { kind: 'offline', for: 2400, ago: 2 } },
      { cause: 'no-network', inferred: false },
    ],
    [
      'a hold that ended: Wi-Fi only on cellular',
      quiet('wifi-only', 'waiting'),
      { was: { kind: 'wifi', for: 2400, ago: 2 } },
      { cause: 'wifi-only', inferred: false },
    ],
    [
      'its SDK started after it went quiet',
      quiet('battery-dead', 'stopped'),
      { up: 60 },
      { cause: 'app-terminated', inferred: false },
    ],
    [
      'running all along (up longer than the silence): not a restart',
      noNetwork,
      { up: 3 * 3600, failure: { class: 'network', ago: 5 } },
      { cause: 'no-network', inferred: false },
    ],
    [
      'uploads timed out meanwhile',
      noNetwork,
      { failure: { class: 'timeout', ago: 5 } },
      { cause: 'timeouts', inferred: false },
    ],
    [
      'nothing it said explains it: the likely cause stands, inferred',
      noNetwork,
      { queued: 3 },
      { cause: 'no-network', inferred: true },
    ],
    ['a tracker without reports', quiet('unexplained', 'silent'), null, { cause: 'unexplained', inferred: true }],
    [
      'named from its own reports before: it was not quiet',
      { ...noNetwork, inferred: false },
      { was: { kind: 'offline', for: 60, ago: 1 } },
      null,
    ],
    ['parked is not a silence', quiet('stationary', 'parked'), { up: 5 }, null],
    [
      'quiet for less than the threshold',
      { ...noNetwork, since: NOW - 5 * MIN },
      { was: { kind: 'offline', for: 60, ago: 1 } },
      null,
    ],
    ['never named', null, { up: 5 }, null],
  ])('%s', (_why, previous, report, expected) => {
    const period = explainReturn(previous, report, NOW, SILENT_AFTER);
    if (expected === null) expect(period).toBeNull();
    else expect(period).toEqual({ from: NOW - 40 * MIN, to: NOW, ...expected });
  });
});
