import { describe, expect, it } from 'vitest';

// The timeline's pure decisions (pages/dashboard/timeline-items.ts, built by npm run build), in Node: one entry per event,
// and "(late)" only when the event really reached the server past lateAfterSeconds.
const MODULE = new URL('../dist/pages/assets/timeline-items.js', import.meta.url).href;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a browser module without types
const load = async (): Promise<any> => import(MODULE);

const T = Date.parse('2024-05-01T10:00:00Z');
const LATE_AFTER = 300_000;
const event = (type: string, at: number, receivedAt: number, late: boolean) => ({
  type,
  timestamp: new Date(at).toISOString(),
  receivedAt: new Date(receivedAt).toISOString(),
  late,
  data: { durationMs: 600_000 },
});
const motion = (at: number, isMoving: boolean) => ({ recordedAt: at, event: 'motionchange', isMoving, record: {} });

describe('timeline entries', () => {
  it('makes a trip edge and its motion change one entry, and keeps an edge with no twin apart', async () => {
    const { timelineItems } = await load();
    const items = timelineItems(
      [motion(T, true), motion(T + 3_600_000, false)],
      {
        events: [
          event('trip.start', T + 1000, T + 2000, false),
          event('trip.end', T + 1_800_000, T + 1_801_000, false),
        ],
      },
      LATE_AFTER,
    );
    expect(items.map((i: { label: string }) => i.label)).toEqual([
      'stopped',
      'trip end (10 min 00 s)',
      'started moving · trip start',
    ]);
    expect(items[2]).toMatchObject({ kind: 'fleet', type: 'trip.start', at: T });
  });

  it('says late only past lateAfterSeconds, by how much, in days past two', async () => {
    const { lateNote } = await load();
    // Flagged by the server, yet it reached the server 2 min after: not late here.
    expect(lateNote(event('trip.start', T, T + 120_000, true), LATE_AFTER)).toBe('');
    expect(lateNote(event('trip.start', T, T + 600_000, true), LATE_AFTER)).toBe(' (late: arrived 10 min 00 s after)');
    expect(lateNote(event('trip.start', T, T + 600_000, false), LATE_AFTER)).toBe('');
    expect(lateNote(event('trip.start', T, T + 3 * 86_400_000, true), LATE_AFTER)).toBe(' (late: arrived 3 d after)');
  });
});
