import type { HealthHistoryRow, NamedHealth } from './admin-api.js';
import { faultClass, HEALTHY_CAUSES, type Fault } from './faults.js';

/**
 * The score of a fault run (issue 39), from nothing but the service's answers and the truth the
 * simulator injected: per device, whether the service named the injected cause in time (a device
 * it still hears from), named a likely cause while it was silent and the right cause for certain
 * once it was back (a device the fault cut off), and every moment it named a wrong cause with
 * certainty (at a look at GET /api/devices/:id/health, or in a row of the device's health history). Pure: time is an
 * argument (the service's clock, epoch ms).
 */

export interface DeviceScore {
  device: string;
  fault: Fault | null;
  /** The truth: the cause the service should name (a control device: none). */
  truth: string | null;
  heard: boolean;
  injectedAt: number | null;
  /** Heard: ms from the injection to the first look at which the service named the truth. */
  namedAfterMs: number | null;
  /** Cut off: the first cause the service named, inferred, after the injection (a likely cause). */
  likely: string | null;
  /** Cut off and back: the silent period the service explained, and whether for certain. */
  explained: { cause: string; inferred: boolean } | null;
  /** The service's last answer. */
  last: NamedHealth | null;
  /** Each wrong cause named with certainty: "<cause> at <ISO time> (<where seen>)". */
  wrongCertain: string[];
}

export class FaultScore {
  private readonly devices = new Map<string, DeviceScore>();
  /** Looks at the service's answers so far. */
  looks = 0;

  constructor(assigned: ReadonlyMap<string, Fault | null>) {
    for (const [device, fault] of assigned) {
      this.devices.set(device, {
        device,
        fault,
        truth: fault === null ? null : faultClass(fault).cause,
        heard: fault === null || faultClass(fault).heard,
        injectedAt: null,
        namedAfterMs: null,
        likely: null,
        explained: null,
        last: null,
        wrongCertain: [],
      });
    }
  }

  injected(device: string, at: number): void {
    const score = this.devices.get(device);
    if (score) score.injectedAt = at;
  }

  /** Causes the service may name with certainty for a device at time `at`. */
  private allowed(score: DeviceScore, at: number): Set<string> {
    const allowed = new Set(HEALTHY_CAUSES);
    if (score.fault === null || score.injectedAt === null || at < score.injectedAt) return allowed;
    const cls = faultClass(score.fault);
    allowed.add(cls.cause);
    if (cls.back) allowed.add(cls.back);
    return allowed;
  }

  private wrong(score: DeviceScore, cause: string, inferred: boolean, at: number, where: string): void {
    if (inferred || this.allowed(score, at).has(cause)) return;
    const line = `${cause} at ${new Date(at).toISOString()} (${where})`;
    if (!score.wrongCertain.includes(line)) score.wrongCertain.push(line);
  }

  /** One look at every device's named state (GET /api/devices/:id/health), at service time `now`. */
  look(now: number, answers: readonly NamedHealth[]): void {
    this.looks++;
    for (const answer of answers) {
      const score = this.devices.get(answer.id);
      if (!score) continue;
      score.last = answer;
      this.wrong(score, answer.cause, answer.inferred, now, 'a look');
      if (score.fault === null || score.injectedAt === null || now < score.injectedAt) continue;
      if (score.heard && score.namedAfterMs === null && answer.cause === score.truth) {
        score.namedAfterMs = now - score.injectedAt;
      }
      if (!score.heard && score.likely === null && answer.inferred && !HEALTHY_CAUSES.has(answer.cause)) {
        score.likely = answer.cause;
      }
    }
  }

  /** The device's health history, read at the end: every change named, and silences explained. */
  history(device: string, rows: readonly HealthHistoryRow[]): void {
    const score = this.devices.get(device);
    if (!score) return;
    for (const row of rows) {
      const at = Date.parse(row.at);
      this.wrong(score, row.cause, row.inferred, at, row.silentFrom ? 'an explained silence' : 'its history');
      if (score.fault === null || score.injectedAt === null || at < score.injectedAt) continue;
      if (row.silentFrom !== undefined) {
        // Newest first: the first silence after the injection read is the one of the fault's return.
        const right = row.cause === faultClass(score.fault).back && !row.inferred;
        if (score.explained === null || right) score.explained = { cause: row.cause, inferred: row.inferred };
      } else if (!score.heard && score.likely === null && row.inferred && !HEALTHY_CAUSES.has(row.cause)) {
        score.likely = row.cause;
      }
    }
  }

  /** Whether every heard device has been named and every cut-off one given a likely cause. */
  settled(): boolean {
    return [...this.devices.values()].every(
      (s) => s.fault === null || (s.heard ? s.namedAfterMs !== null : s.likely !== null),
    );
  }

  rows(): DeviceScore[] {
    return [...this.devices.values()];
  }
}

/** The counts a run is judged by. */
export interface ScoreCounts {
  /** Faulted devices the service still heard from, and those named the truth within `boundMs`. */
  heard: number;
  namedInTime: number;
  /** Faulted devices cut off; named a likely cause while silent (and the truth); explained on return. */
  cutOff: number;
  likely: number;
  likelyRight: number;
  explained: number;
  /** Devices (controls included) named a wrong cause with certainty at any moment. */
  wrongCertain: number;
}

export const explainedRight = (s: DeviceScore): boolean =>
  s.fault !== null && s.explained !== null && !s.explained.inferred && s.explained.cause === faultClass(s.fault).back;

export function countScore(rows: readonly DeviceScore[], boundMs: number): ScoreCounts {
  const faulted = rows.filter((r) => r.fault !== null);
  const heard = faulted.filter((r) => r.heard);
  const cut = faulted.filter((r) => !r.heard);
  return {
    heard: heard.length,
    namedInTime: heard.filter((r) => r.namedAfterMs !== null && r.namedAfterMs <= boundMs).length,
    cutOff: cut.length,
    likely: cut.filter((r) => r.likely !== null).length,
    likelyRight: cut.filter((r) => r.likely === r.truth).length,
    explained: cut.filter(explainedRight).length,
    wrongCertain: rows.filter((r) => r.wrongCertain.length > 0).length,
  };
}

/** The bar: 95% of the heard named in time, none wrong with certainty, every cut-off one explained. */
export const scorePassed = (c: ScoreCounts): boolean =>
  c.heard + c.cutOff > 0 &&
  c.namedInTime >= 0.95 * c.heard &&
  c.wrongCertain === 0 &&
  c.likely === c.cutOff &&
  c.explained === c.cutOff;
