import type { Clock, LocationInput } from '@waypost/sdk/internal';

/** How fast a recorded track is replayed: 1 = as recorded, 10 = ten times faster, 0 = no waiting. */
export interface ReplayOptions {
  speed: number;
  clock: Clock;
}

function fixTime(fix: LocationInput): number | null {
  const t = fix.timestamp;
  if (t === undefined) return null;
  const ms = t instanceof Date ? t.getTime() : typeof t === 'number' ? t : Date.parse(t);
  return Number.isFinite(ms) ? ms : null;
}

/**
 * Delivers timed fixes at their recorded pace, scaled by `speed`: the n-th fix is due at
 * start + (t_n - t_0) / speed on the injected clock, so a slow consumer does not stretch the
 * whole replay and a test can drive it with a manual clock. Fixes keep their recorded times.
 * Resolves when the input is exhausted or `stopped()` turns true.
 */
export async function replayAtPace(
  fixes: AsyncIterable<LocationInput> | Iterable<LocationInput>,
  options: ReplayOptions,
  onFix: (fix: LocationInput) => void | Promise<unknown>,
  stopped: () => boolean,
  sleep: (ms: number) => Promise<void>,
): Promise<void> {
  let origin: { at: number; time: number } | null = null;
  for await (const fix of fixes) {
    if (stopped()) return;
    const time = fixTime(fix);
    if (options.speed > 0 && time !== null) {
      if (!origin) origin = { at: options.clock.now(), time };
      const due = origin.at + Math.max(0, time - origin.time) / options.speed;
      const wait = due - options.clock.now();
      if (wait > 0) await sleep(wait);
      if (stopped()) return;
    }
    await onFix(fix);
  }
}

/** A sleep on the injected clock that stop() can cut short. */
export function stoppableSleep(clock: Clock): { sleep(ms: number): Promise<void>; cancel(): void } {
  let pending: { timer: unknown; resolve: () => void } | null = null;
  return {
    sleep: (ms) =>
      new Promise<void>((resolve) => {
        const timer = clock.setTimeout(() => {
          pending = null;
          resolve();
        }, ms);
        pending = { timer, resolve };
      }),
    cancel() {
      if (!pending) return;
      clock.clearTimeout(pending.timer);
      pending.resolve();
      pending = null;
    },
  };
}
