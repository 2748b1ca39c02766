import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Writes dir/walk.gpx: `points` fixes one second apart, northwards, starting a minute ago. */
export function writeGpxWalk(dir: string, points: number): string {
  const start = Date.now() - 60_000;
  const trkpts = Array.from(
    { length: points },
    (_, i) =>
      `<trkpt lat="${(45.5 + i * 1e-4).toFixed(6)}" lon="-73.56"><time>${new Date(start + i * 1000).toISOString()}</time></trkpt>`,
  );
  const path = join(dir, 'walk.gpx');
  writeFileSync(
    path,
    `<gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>${trkpts.join('')}</trkseg></trk></gpx>`,
  );
  return path;
}
