// The fault run's score (issue 39) from the server's answers alone: a cause named with certainty
// that is not what was injected is caught whenever it was said (at a look or in the history), a
// heard device counts only when named in time, a cut-off device only when its return is explained
// for certain with the right cause. The answers here are written by hand, as a server could give them.
import { describe, expect, it } from 'vitest';
import { countScore, FaultScore, scorePassed } from '../src/simulate/fault-score.js';

const T0 = Date.UTC(2026, 10, 29, 0, 0, 0);
const iso = (ms: number) => new Date(T0 + ms).toISOString();
const answer = (id: string, cause: string, inferred: boolean) => ({ id, state: 's', cause, inferred, since: null });

describe('the score of a fault run', () => {
  it('catches a wrong cause named with certainty at a look, for a control device too', () => {
    const score = new FaultScore(
      new Map([
        ['a', 'parked' as const],
        ['c', null],
      ]),
    );
    score.injected('a', T0);
    score.look(T0 + 1_000, [answer('a', 'no-network', false), answer('c', 'clock-off', false)]);
    score.look(T0 + 2_000, [answer('a', 'stationary', false), answer('c', 'reporting', false)]);
    const [a, c] = score.rows();
    expect(a!.wrongCertain).toEqual([`no-network at ${iso(1_000)} (a look)`]);
    expect(a!.namedAfterMs).toBe(2_000);
    expect(c!.wrongCertain).toEqual([`clock-off at ${iso(1_000)} (a look)`]);
    expect(countScore(score.rows(), 5_000)).toMatchObject({ heard: 1, namedInTime: 1, wrongCertain: 2 });
  });

  it('a cause named before the fault was injected is wrong; a likely one never is; the history counts as a look', () => {
    const score = new FaultScore(new Map([['b', 'server-errors' as const]]));
    score.history('b', [{ at: iso(-1_000), state: 'failing', cause: 'server-errors', inferred: false }]);
    score.injected('b', T0);
    score.look(T0 + 1_000, [answer('b', 'no-network', true)]);
    const [b] = score.rows();
    expect(b!.wrongCertain).toEqual([`server-errors at ${iso(-1_000)} (its history)`]);
    expect(b!.likely).toBe('no-network');
  });

  it.each([
    ['the right cause, certain', 'server-errors', false, 1],
    ['the right cause, likely', 'server-errors', true, 0],
    ['another cause, likely', 'no-network', true, 0],
  ])('a cut-off device whose return is explained with %s counts %d', (_name, cause, inferred, explained) => {
    const score = new FaultScore(new Map([['d', 'server-errors' as const]]));
    score.injected('d', T0);
    score.look(T0 + 9_000, [answer('d', 'no-network', true)]);
    score.history('d', [
      { at: iso(20_000), state: 'failing', cause, inferred, silentFrom: iso(0), silentTo: iso(20_000) },
    ]);
    expect(countScore(score.rows(), 5_000)).toMatchObject({ cutOff: 1, likely: 1, explained });
  });

  it('passes at 95% of the heard named in time, and not below', () => {
    const base = { cutOff: 0, likely: 0, likelyRight: 0, explained: 0, wrongCertain: 0 };
    expect(scorePassed({ ...base, heard: 20, namedInTime: 19 })).toBe(true);
    expect(scorePassed({ ...base, heard: 20, namedInTime: 18 })).toBe(false);
    expect(scorePassed({ ...base, heard: 20, namedInTime: 20, wrongCertain: 1 })).toBe(false);
    expect(scorePassed({ ...base, heard: 1, namedInTime: 1, cutOff: 2, likely: 2, explained: 1 })).toBe(false);
  });
});
