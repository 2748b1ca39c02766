// The tracks bench/wire-bytes.mjs uploads, as a location provider gives them: coordinates at seven
// decimals (a GNSS receiver's and the GPX/NMEA providers' precision), whole-degree headings.

/** A walk: 1.4 m/s with a wandering heading, a fix every 5 s, battery draining (issue 20's track). */
export function* walk(count) {
  let lat = 45.5017;
  let lon = -73.5673;
  let heading = 45;
  for (let i = 0; i < count; i++) {
    heading = (heading + Math.sin(i / 7) * 25 + 360) % 360;
    lat += (7 * Math.cos((heading * Math.PI) / 180)) / 111_195;
    lon += (7 * Math.sin((heading * Math.PI) / 180)) / (111_195 * Math.cos((lat * Math.PI) / 180));
    yield {
      latitude: Number(lat.toFixed(7)),
      longitude: Number(lon.toFixed(7)),
      accuracy: 4 + (i % 7),
      speed: 1.2 + (i % 5) / 10,
      heading: Math.round(heading),
      altitude: 20 + (i % 11),
      battery: { level: Math.max(0.05, 1 - i / 10_000), is_charging: false },
      timestamp: Date.UTC(2026, 4, 17, 13) + i * 5000,
    };
  }
}

/**
 * A vehicle through a city grid, a fix every 10 s (issue 34's fleet case): speed from 0 (lights)
 * to 16.7 m/s, right-angle turns every few blocks, altitude drifting with the terrain, accuracy
 * from the receiver, a charging tracker's battery.
 */
export function* drive(count) {
  let lat = 45.5088;
  let lon = -73.5878;
  let heading = 35;
  let altitude = 38.5;
  for (let i = 0; i < count; i++) {
    if (i % 23 === 22) heading = (heading + (i % 2 === 0 ? 90 : 270)) % 360;
    const stopped = i % 31 >= 29;
    const speed = stopped ? 0 : Number((9 + 7.7 * Math.abs(Math.sin(i / 9))).toFixed(2));
    const metres = speed * 10;
    lat += (metres * Math.cos((heading * Math.PI) / 180)) / 111_195;
    lon += (metres * Math.sin((heading * Math.PI) / 180)) / (111_195 * Math.cos((lat * Math.PI) / 180));
    altitude = Number((altitude + Math.sin(i / 13) * 0.8).toFixed(1));
    yield {
      latitude: Number(lat.toFixed(7)),
      longitude: Number(lon.toFixed(7)),
      accuracy: 3 + (i % 4),
      speed,
      heading: stopped ? -1 : heading,
      altitude,
      battery: { level: 1, is_charging: true },
      timestamp: Date.UTC(2026, 4, 18, 7, 30) + i * 10_000,
    };
  }
}
