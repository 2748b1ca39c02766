import { readFile, stat } from 'node:fs/promises';
import type { Clock, LocationProvider } from '@waypost/sdk/internal';
import { fileDigest, fixUuid } from './fix-identity.js';
import { MAX_GPX_BYTES, parseGpxTrack } from './gpx-track.js';
import { ProviderError } from './provider-error.js';
import { replayAtPace, stoppableSleep } from './replay.js';

export interface GpxReplayOptions {
  path: string;
  /** 1 = at the recorded pace (default), 10 = ten times faster, 0 = as fast as possible. */
  speed?: number;
  clock: Clock;
}

/** Replays a GPX file's track points with their recorded times; ends (onEnd) after the last one. */
export function createGpxReplayProvider(options: GpxReplayOptions): LocationProvider {
  const name = `gpx ${options.path}`;
  const pause = stoppableSleep(options.clock);
  let stopped = false;
  let done: Promise<void> | null = null;

  const load = async () => {
    const size = (await stat(options.path)).size;
    if (size > MAX_GPX_BYTES) {
      throw new ProviderError('SOURCE_INVALID', `${size} bytes is over the ${MAX_GPX_BYTES}-byte limit for a GPX file`);
    }
    const xml = await readFile(options.path, 'utf8');
    const fixes = parseGpxTrack(xml);
    // Routes and waypoints are not a recorded walk: a file without track points replays nothing,
    // which must not pass for a replay that worked.
    if (fixes.length === 0) throw new ProviderError('SOURCE_INVALID', 'no track point (<trkpt>) in it');
    // Each track point keeps one uuid across replays (a restart after a kill records the same ones).
    const digest = fileDigest(xml);
    return fixes.map((fix, index) => ({ ...fix, uuid: fixUuid(digest, index) }));
  };

  return {
    name,
    start(onFix, onError, onEnd) {
      if (done) return;
      stopped = false;
      done = load()
        .then((fixes) =>
          replayAtPace(fixes, { speed: options.speed ?? 1, clock: options.clock }, onFix, () => stopped, pause.sleep),
        )
        .then(
          () => {
            if (!stopped) onEnd?.();
          },
          (error: Error) => {
            onError(new ProviderError('SOURCE_INVALID', `${name}: ${error.message}`));
            if (!stopped) onEnd?.();
          },
        );
    },
    async stop() {
      stopped = true;
      pause.cancel();
      await done;
      done = null;
    },
  };
}
