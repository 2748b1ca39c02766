/** A simulated vehicle's fixes: driving a street grid, one fix a second, in trips separated by pauses. */
export interface FleetFix {
  uuid: string;
  timestamp: string;
  is_moving: boolean;
  odometer: number;
  event?: string;
  coords: { latitude: number; longitude: number; accuracy: number; speed: number; heading: number; altitude: number };
  activity: { type: string; confidence: number };
  battery: { level: number; is_charging: boolean };
  extras: Record<string, unknown>;
}

const SPEED_MPS = 10;
const METERS_PER_DEGREE = 111_320;
/** Turns at a crossing every this many fixes (a 600 m street grid). */
const BLOCK_FIXES = 60;
const TURNS = [true, false, false, true, true, false, true, false, false, false, true, true, false];

/**
 * One trip: `fixes` fixes ending at `endMs`, from (lat, lon), turning left or right at every
 * crossing by a fixed pattern (deterministic, so tests can name the newest fix).
 */
export function drive(
  device: string,
  trip: string,
  fixes: number,
  endMs: number,
  start: { latitude: number; longitude: number },
): FleetFix[] {
  let { latitude, longitude } = start;
  let heading = 0;
  const out: FleetFix[] = [];
  for (let i = 0; i < fixes; i++) {
    // Left or right at each crossing by a fixed irregular pattern: the vehicle wanders off, not in circles.
    if (i > 0 && i % BLOCK_FIXES === 0)
      heading = (heading + (TURNS[(i / BLOCK_FIXES) % TURNS.length]! ? 90 : 270)) % 360;
    const radians = (heading * Math.PI) / 180;
    latitude += (Math.cos(radians) * SPEED_MPS) / METERS_PER_DEGREE;
    longitude += (Math.sin(radians) * SPEED_MPS) / (METERS_PER_DEGREE * Math.cos((latitude * Math.PI) / 180));
    out.push({
      uuid: `${device}-${trip}-${i}`,
      timestamp: new Date(endMs - (fixes - 1 - i) * 1000).toISOString(),
      is_moving: true,
      odometer: i * SPEED_MPS,
      coords: { latitude, longitude, accuracy: 5 + (i % 7), speed: SPEED_MPS, heading, altitude: 40 },
      activity: { type: 'in_vehicle', confidence: 90 },
      battery: { level: 0.9 - i / 100_000, is_charging: false },
      extras: { trip },
    });
  }
  return out;
}
