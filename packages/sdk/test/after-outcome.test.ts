import { describe, expect, it } from 'vitest';
import {
  decideAfterOutcome,
  MAX_REFUSALS_PER_FLUSH,
  MAX_RETRY_AFTER_MS,
  retryAfterUntil,
  type AfterOutcomeAction,
  type UploadOutcome,
} from '@waypost/sdk/internal';

const NOW = Date.UTC(2026, 0, 1, 12, 0, 0);
const unlockAndEnd: AfterOutcomeAction[] = [{ type: 'unlock' }, { type: 'endFlush' }];

// What the uploader does after each outcome: (outcome, batch size, attempt, now) -> actions.
describe('decideAfterOutcome', () => {
  it.each<[string, UploadOutcome, number, number, AfterOutcomeAction[]]>([
    ['2xx deletes and goes on', { kind: 'delivered', status: 200 }, 5, 0, [{ type: 'delete' }, { type: 'continue' }]],
    ['204 of one record', { kind: 'delivered', status: 204 }, 1, 0, [{ type: 'delete' }, { type: 'continue' }]],
    ['first 401 refreshes and resends', { kind: 'unauthorized', status: 401 }, 3, 0, [{ type: 'refreshAndResend' }]],
    ['second 401 gives up for this flush', { kind: 'unauthorized', status: 401 }, 3, 1, unlockAndEnd],
    [
      '413 of 12 halves to 6',
      { kind: 'tooLarge', status: 413 },
      12,
      0,
      [{ type: 'unlock' }, { type: 'limitBatch', size: 6 }, { type: 'continue' }],
    ],
    [
      '413 of 3 halves to 1',
      { kind: 'tooLarge', status: 413 },
      3,
      0,
      [{ type: 'unlock' }, { type: 'limitBatch', size: 1 }, { type: 'continue' }],
    ],
    [
      '413 of 2 halves to 1',
      { kind: 'tooLarge', status: 413 },
      2,
      0,
      [{ type: 'unlock' }, { type: 'limitBatch', size: 1 }, { type: 'continue' }],
    ],
    ['413 of one record stays queued and ends', { kind: 'tooLarge', status: 413 }, 1, 0, unlockAndEnd],
    [
      'a refused batch is split in two (records stay locked)',
      { kind: 'refused', status: 422 },
      9,
      0,
      [{ type: 'bisect' }],
    ],
    [
      'one refused record is held back and the flush goes on',
      { kind: 'refused', status: 400 },
      1,
      0,
      [{ type: 'hold' }, { type: 'continue' }],
    ],
    ['500 unlocks and ends', { kind: 'retry', status: 500, reason: 'status' }, 4, 0, unlockAndEnd],
    ['timeout unlocks and ends', { kind: 'retry', status: 0, reason: 'timeout' }, 1, 0, unlockAndEnd],
    ['network failure unlocks and ends', { kind: 'retry', status: 0, reason: 'network' }, 1, 0, unlockAndEnd],
    [
      '503 Retry-After: 30 defers 30 s',
      { kind: 'retry', status: 503, reason: 'status', retryAfter: '30' },
      1,
      0,
      [{ type: 'unlock' }, { type: 'deferAutomatic', until: NOW + 30_000 }, { type: 'endFlush' }],
    ],
    [
      '429 Retry-After as an HTTP date',
      { kind: 'retry', status: 429, reason: 'status', retryAfter: 'Thu, 01 Jan 2026 12:02:00 GMT' },
      1,
      0,
      [{ type: 'unlock' }, { type: 'deferAutomatic', until: NOW + 120_000 }, { type: 'endFlush' }],
    ],
    [
      'Retry-After of a day is capped at an hour',
      { kind: 'retry', status: 503, reason: 'status', retryAfter: '86400' },
      1,
      0,
      [{ type: 'unlock' }, { type: 'deferAutomatic', until: NOW + MAX_RETRY_AFTER_MS }, { type: 'endFlush' }],
    ],
    [
      'unreadable Retry-After is ignored',
      { kind: 'retry', status: 503, reason: 'status', retryAfter: 'soon' },
      1,
      0,
      unlockAndEnd,
    ],
    [
      'Retry-After: 0 defers nothing',
      { kind: 'retry', status: 503, reason: 'status', retryAfter: '0' },
      1,
      0,
      unlockAndEnd,
    ],
  ])('%s', (_name, outcome, batchSize, attempt, actions) => {
    expect(decideAfterOutcome(outcome, batchSize, attempt, NOW)).toEqual(actions);
  });
});

describe('retryAfterUntil', () => {
  it.each<[string, number | null]>([
    ['1', NOW + 1000],
    [' 600 ', NOW + 600_000],
    ['3600', NOW + MAX_RETRY_AFTER_MS],
    ['3601', NOW + MAX_RETRY_AFTER_MS],
    ['99999999999999999999', NOW + MAX_RETRY_AFTER_MS],
    ['Thu, 01 Jan 2026 12:00:10 GMT', NOW + 10_000],
    ['Thursday, 01-Jan-26 12:00:10 GMT', NOW + 10_000],
    ['Thu, 01 Jan 2026 11:59:00 GMT', null],
    ['-5', null],
    ['1.5', null],
    ['', null],
    ['2026-01-01T12:00:10Z', null],
  ])('%j', (value, until) => {
    expect(retryAfterUntil(value, NOW)).toBe(until);
  });
});

describe('the refusal budget of a flush', () => {
  it('ends the flush once spent: a server refusing everything is not asked 2n-1 times', () => {
    const refused: UploadOutcome = { kind: 'refused', status: 400 };
    expect(decideAfterOutcome(refused, 100, 0, NOW, 1)).toEqual([{ type: 'bisect' }]);
    expect(decideAfterOutcome(refused, 100, 0, NOW, 0)).toEqual(unlockAndEnd);
    expect(decideAfterOutcome(refused, 1, 0, NOW, 0)).toEqual(unlockAndEnd);
    expect(MAX_REFUSALS_PER_FLUSH).toBeGreaterThanOrEqual(2 * Math.ceil(Math.log2(1000)));
  });
});
