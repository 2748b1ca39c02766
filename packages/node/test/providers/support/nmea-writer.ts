import { nmeaChecksum } from '@waypost/node';

/** "GPGGA,..." into "$GPGGA,...*hh": for relabelled talkers and generated tracks. */
export const sentence = (body: string): string =>
  `$${body}*${nmeaChecksum(body).toString(16).toUpperCase().padStart(2, '0')}`;

function ddmm(value: number, degreeDigits: 2 | 3): string {
  const abs = Math.abs(value);
  const degrees = Math.floor(abs);
  const minutes = (abs - degrees) * 60;
  return `${String(degrees).padStart(degreeDigits, '0')}${minutes.toFixed(5).padStart(8, '0')}`;
}

export interface TrackPoint {
  time: number;
  latitude: number;
  longitude: number;
  altitude: number;
  speedMps: number;
  course: number;
}

/** One receiver epoch (GGA, GSA, GST, RMC) for a point, as a u-blox-style GN receiver writes it. */
export function epochSentences(p: TrackPoint, talker = 'GN'): string[] {
  const d = new Date(p.time);
  const hhmmss = `${String(d.getUTCHours()).padStart(2, '0')}${String(d.getUTCMinutes()).padStart(2, '0')}${String(d.getUTCSeconds()).padStart(2, '0')}.${String(Math.floor(d.getUTCMilliseconds() / 10)).padStart(2, '0')}`;
  const ddmmyy = `${String(d.getUTCDate()).padStart(2, '0')}${String(d.getUTCMonth() + 1).padStart(2, '0')}${String(d.getUTCFullYear() % 100).padStart(2, '0')}`;
  const lat = `${ddmm(p.latitude, 2)},${p.latitude >= 0 ? 'N' : 'S'}`;
  const lon = `${ddmm(p.longitude, 3)},${p.longitude >= 0 ? 'E' : 'W'}`;
  return [
    sentence(`${talker}GGA,${hhmmss},${lat},${lon},1,09,0.90,${p.altitude.toFixed(1)},M,47.0,M,,`),
    sentence(`${talker}GSA,A,3,05,07,13,15,18,20,24,29,30,,,,1.60,0.90,1.30`),
    sentence(`${talker}GST,${hhmmss},1.2,2.4,1.6,12.0,2.1,1.8,3.3`),
    sentence(
      `${talker}RMC,${hhmmss},A,${lat},${lon},${(p.speedMps / 0.514444).toFixed(3)},${p.course.toFixed(2)},${ddmmyy},,,A`,
    ),
  ];
}

/** A straight track heading north-east from a start point, one point per `stepMs`. */
export function straightTrack(count: number, start = Date.UTC(2026, 4, 17, 9, 0, 0), stepMs = 1000): TrackPoint[] {
  return Array.from({ length: count }, (_, i) => ({
    time: start + i * stepMs,
    latitude: 52.52 + i * 0.0001,
    longitude: 13.405 + i * 0.0001,
    altitude: 34 + i,
    speedMps: 13.1,
    course: 31.3,
  }));
}
