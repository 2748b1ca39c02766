import type { Random } from './random.js';

/** Length of one block between two intersections. */
export const BLOCK_M = 150;
/** Intersections per side of the square grid. */
export const GRID_SIZE = 8;
export const MIN_SPEED_MPS = 5;
export const MAX_SPEED_MPS = 15;
/** Chance of stopping (parking, a delivery) on reaching an intersection. */
export const STOP_PROBABILITY = 0.12;
/**
 * Stops outlast the SDK's default geolocation.stopTimeout (5 minutes), so a device that stops goes
 * stationary; GPS noise keeps every fix within the default stationaryRadius (25 m) of the stop.
 */
export const MIN_STOP_MS = 6 * 60_000;
export const MAX_STOP_MS = 9 * 60_000;
/** Standard deviation of the position noise per axis; bounded at about 3.5 sd by the noise source. */
export const GPS_NOISE_SD_M = 3;

const METERS_PER_DEGREE = 111_320;

export interface Origin {
  latitude: number;
  longitude: number;
}

/** A fix as a location provider reports it: what recordLocation() takes. */
export interface TrackFix {
  latitude: number;
  longitude: number;
  accuracy: number;
  speed: number;
  heading: number;
  /** Not part of the fix: whether the vehicle is driving, for progress and tests. */
  driving: boolean;
}

interface Node {
  col: number;
  row: number;
}

type Leg = { kind: 'driving'; from: Node; to: Node; travelledM: number; cruiseMps: number; speedMps: number };
type Halt = { kind: 'stopped'; at: Node; remainingMs: number };

const key = (node: Node) => `${node.col},${node.row}`;

function neighbours(node: Node): Node[] {
  return [
    { col: node.col + 1, row: node.row },
    { col: node.col - 1, row: node.row },
    { col: node.col, row: node.row + 1 },
    { col: node.col, row: node.row - 1 },
  ].filter((n) => n.col >= 0 && n.row >= 0 && n.col < GRID_SIZE && n.row < GRID_SIZE);
}

/**
 * A vehicle on a small street grid: it drives along streets at 5-15 m/s with some speed noise,
 * turns at intersections (straight on more often than not, U-turns only at the edge) and now and
 * then stops for several minutes. Pure: time passes only through advance(), randomness only through
 * the given source, so a seed reproduces the track.
 */
export class StreetTrack {
  private state: Leg | Halt;

  constructor(
    private readonly random: Random,
    private readonly origin: Origin,
  ) {
    const start = { col: Math.floor(random.next() * GRID_SIZE), row: Math.floor(random.next() * GRID_SIZE) };
    this.state = this.leg(start, random.pick(neighbours(start)));
  }

  get driving(): boolean {
    return this.state.kind === 'driving';
  }

  advance(ms: number): void {
    let remainingMs = ms;
    // Bounded: each pass either ends a stop or reaches an intersection, and ms is finite.
    for (let pass = 0; remainingMs > 0 && pass < 10_000; pass++) {
      const state = this.state;
      if (state.kind === 'stopped') {
        const used = Math.min(remainingMs, state.remainingMs);
        state.remainingMs -= used;
        remainingMs -= used;
        if (state.remainingMs <= 0) this.state = this.leg(state.at, this.random.pick(neighbours(state.at)));
        continue;
      }
      const speed = state.speedMps;
      const leftM = BLOCK_M - state.travelledM;
      const needMs = (leftM / speed) * 1000;
      if (needMs > remainingMs) {
        state.travelledM += (speed * remainingMs) / 1000;
        remainingMs = 0;
      } else {
        remainingMs -= needMs;
        this.arrive(state);
      }
    }
    if (this.state.kind === 'driving') {
      const leg = this.state;
      leg.speedMps = clamp(leg.cruiseMps + this.random.noise(1), MIN_SPEED_MPS, MAX_SPEED_MPS);
    }
  }

  /** The current fix, with GPS noise on the position and the speed. */
  fix(): TrackFix {
    const state = this.state;
    let x: number;
    let y: number;
    let heading = -1;
    let speed = 0;
    if (state.kind === 'stopped') {
      x = state.at.col * BLOCK_M;
      y = state.at.row * BLOCK_M;
    } else {
      const f = state.travelledM / BLOCK_M;
      x = (state.from.col + (state.to.col - state.from.col) * f) * BLOCK_M;
      y = (state.from.row + (state.to.row - state.from.row) * f) * BLOCK_M;
      heading = headingOf(state.from, state.to);
      speed = Math.max(0, state.speedMps + this.random.noise(0.3));
    }
    x += this.random.noise(GPS_NOISE_SD_M);
    y += this.random.noise(GPS_NOISE_SD_M);
    const latitude = this.origin.latitude + y / METERS_PER_DEGREE;
    const longitude =
      this.origin.longitude + x / (METERS_PER_DEGREE * Math.cos((this.origin.latitude * Math.PI) / 180));
    return {
      latitude: round(latitude, 7),
      longitude: round(longitude, 7),
      accuracy: round(this.random.between(4, 12), 1),
      speed: round(speed, 2),
      heading: round(heading, 1),
      driving: state.kind === 'driving',
    };
  }

  private arrive(leg: Leg): void {
    if (this.random.next() < STOP_PROBABILITY) {
      this.state = { kind: 'stopped', at: leg.to, remainingMs: this.random.between(MIN_STOP_MS, MAX_STOP_MS) };
      return;
    }
    const options = neighbours(leg.to).filter((n) => key(n) !== key(leg.from));
    const straight = {
      col: leg.to.col + (leg.to.col - leg.from.col),
      row: leg.to.row + (leg.to.row - leg.from.row),
    };
    const canGoStraight = options.some((n) => key(n) === key(straight));
    const next =
      options.length === 0
        ? leg.from
        : canGoStraight && this.random.next() < 0.5
          ? straight
          : this.random.pick(options);
    this.state = this.leg(leg.to, next);
  }

  private leg(from: Node, to: Node): Leg {
    const cruiseMps = this.random.between(MIN_SPEED_MPS + 1, MAX_SPEED_MPS - 1);
    return { kind: 'driving', from, to, travelledM: 0, cruiseMps, speedMps: cruiseMps };
  }
}

function headingOf(from: Node, to: Node): number {
  if (to.col > from.col) return 90;
  if (to.col < from.col) return 270;
  return to.row > from.row ? 0 : 180;
}

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));
const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;
