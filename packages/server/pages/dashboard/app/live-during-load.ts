// Live positions the feed tells of while a device's track is loading. The track's answer was made
// when the page asked, so a position stored after that is not in it: drawn as it came, the answer
// would put the marker back on an older fix, and the live one would be lost from the map until the
// device's next (a range change, a zoom or a selection reloads a track while devices report).

/** [latitude, longitude, time in ms], as the live feed tells them, oldest first. */
export type LivePoint = [number, number, number];

/** Held a load at most: a device reporting faster than its track loads keeps its newest ones. */
const MAX_HELD_LIVE = 1000;

/** A track load under way: the live positions told since it began. */
export class LiveDuringLoad {
  private held: LivePoint[] | null = null;

  /** A load began: what it fetches holds every position stored before now. */
  begin(): void {
    this.held = [];
  }

  /** A live position: kept while a load is under way. */
  tell(point: LivePoint): void {
    if (this.held === null) return;
    if (this.held.length >= MAX_HELD_LIVE) this.held.shift();
    this.held.push(point);
  }

  /** The newest load drew: the positions told meanwhile that are newer than its track's newest fix. */
  end(newestTime: number | null): LivePoint[] {
    const held = this.held ?? [];
    this.held = null;
    return newerThan(held, newestTime);
  }
}

/** What a track load drew, with the live positions told meanwhile put back over it, in order. */
export function drawToldOver(
  live: LiveDuringLoad,
  track: { newest?: { lat: number; lon: number; t: number } | null },
  layer: { appendLive(latitude: number, longitude: number, t: number): void },
): void {
  for (const [lat, lon, t] of live.end(track.newest?.t ?? null)) {
    layer.appendLive(lat, lon, t);
    track.newest = { lat, lon, t };
  }
}

/** The points after `time` (all of them when the track has none), in the order they were told. */
function newerThan(points: readonly LivePoint[], time: number | null): LivePoint[] {
  return time === null ? [...points] : points.filter((point) => point[2] > time);
}
