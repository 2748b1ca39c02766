import type { Coords } from '../records/location.js';
import { distanceMeters } from '../geometry/distance.js';

type Point = Pick<Coords, 'latitude' | 'longitude'>;

export interface MotionSettings {
  /** Metres. */
  stationaryRadius: number;
  /** Minutes. */
  stopTimeoutMinutes: number;
}

export type MotionSignal = 'moving' | 'stationary' | null;

/**
 * Motion from locations alone (no accelerometer here): the device is moving once it leaves
 * stationaryRadius around where it stopped, and stationary once stopTimeout passes without it
 * leaving stationaryRadius around its latest stop candidate. Pure state and time in, signal out;
 * the caller owns the timer that calls `timeout(now)`.
 */
export class MotionDetector {
  /** Where the device stopped (while stationary) or where it may be stopping (while moving). */
  private anchor: Point | null = null;
  private anchorSince = 0;

  constructor(public isMoving: boolean) {}

  /** Feeds one location; returns the transition it causes, if any. */
  observe(point: Point, now: number, settings: MotionSettings): MotionSignal {
    if (this.anchor === null) {
      this.setAnchor(point, now);
      return null;
    }
    const left = distanceMeters(this.anchor, point) > settings.stationaryRadius;
    if (!this.isMoving) {
      if (!left) return null;
      this.isMoving = true;
      this.setAnchor(point, now);
      return 'moving';
    }
    if (left) this.setAnchor(point, now);
    return this.timeout(now, settings);
  }

  /** Called by the stop timer (and on each location): stationary once the stop has lasted. */
  timeout(now: number, settings: MotionSettings): MotionSignal {
    if (!this.isMoving || this.anchor === null) return null;
    if (now - this.anchorSince < settings.stopTimeoutMinutes * 60_000) return null;
    this.isMoving = false;
    this.anchorSince = now;
    return 'stationary';
  }

  /** The remaining time before the current stop candidate makes the device stationary. */
  msUntilStationary(now: number, settings: MotionSettings): number | null {
    if (!this.isMoving || this.anchor === null) return null;
    return Math.max(0, this.anchorSince + settings.stopTimeoutMinutes * 60_000 - now);
  }

  /** A forced state (changePace): the stop candidate restarts at the latest point. */
  force(isMoving: boolean, point: Point | null, now: number): void {
    this.isMoving = isMoving;
    if (point) this.setAnchor(point, now);
    else this.anchorSince = now;
  }

  private setAnchor(point: Point, now: number): void {
    this.anchor = { latitude: point.latitude, longitude: point.longitude };
    this.anchorSince = now;
  }
}
