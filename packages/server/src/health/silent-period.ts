import type { HealthReport } from '@waypost/sdk/internal';
import { formatHealthHeader } from '@waypost/sdk/internal';
import type { Queryable } from '../db/database.js';
import { CAUSES, FAILURE_CAUSES, type Cause, type NamedState } from './decide-state.js';

/** A silent period, explained once the device was back. */
export interface SilentPeriod {
  from: number;
  to: number;
  cause: Cause;
  /** False: the device's own report on its return says so; true: nothing it said explains it. */
  inferred: boolean;
}

const HELD: Record<NonNullable<HealthReport['was']>['kind'], Cause> = {
  offline: 'no-network',
  wifi: 'wifi-only',
  'retry-after': 'retry-after',
  'autosync-off': 'autosync-off',
};

/**
 * Why a device that had been quiet was quiet, from the report it sends on its return (pure): an
 * app started since (`up`), the hold that ended (`was`: no network, Wi-Fi only on cellular ...) or
 * the failure its uploads met since its last delivery (`fail=`: network, timeout, server errors,
 * throttled, client errors, credentials or records refused) say it for certain; otherwise the likely cause named while it was quiet stands,
 * inferred. Null when the device had not been quiet: named from its own reports before (not
 * inferred), or for less than the silence threshold.
 */
export function explainReturn(
  previous: NamedState | null,
  report: HealthReport | null,
  now: number,
  silentAfterMs: number,
): SilentPeriod | null {
  if (previous === null || !previous.inferred || previous.since === null) return null;
  if (previous.state === 'live' || previous.state === 'parked') return null;
  if (now - previous.since <= silentAfterMs) return null;
  const period = { from: previous.since, to: now };
  // Its SDK started after it went quiet: the app was not running (killed, a dead battery, a reboot).
  if (report?.up !== undefined && now - report.up * 1000 > previous.since) {
    return { ...period, cause: 'app-terminated', inferred: false };
  }
  if (report?.was) return { ...period, cause: HELD[report.was.kind], inferred: false };
  const failure = report?.failure?.class;
  if (failure) return { ...period, cause: FAILURE_CAUSES[failure], inferred: false };
  return { ...period, cause: previous.cause, inferred: true };
}

/** Keeps the explained period in the device's health history (read by the health and ledger APIs). */
export async function saveSilentPeriod(
  db: Queryable,
  deviceId: string,
  period: SilentPeriod,
  report: HealthReport | null,
  now: number,
): Promise<void> {
  await db.run(
    `INSERT INTO device_health (device_id, at, state, cause, inferred, since, report, silent_from, silent_to, said)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      deviceId,
      now,
      CAUSES[period.cause],
      period.cause,
      period.inferred ? 1 : 0,
      period.from,
      report === null ? null : formatHealthHeader(report),
      period.from,
      period.to,
      period.inferred ? 'nothing it said on its return explains it' : 'said by the device on its return',
    ],
  );
}

export interface SilentPeriodJson {
  from: string;
  to: string;
  state: string;
  cause: string;
  inferred: boolean;
  /** "silent from A to B because X", as an operator reads it. */
  text: string;
}

/** The device's explained silent periods, newest first (the ledger's timeline). */
export async function silentPeriods(db: Queryable, deviceId: string, limit: number): Promise<SilentPeriodJson[]> {
  const rows = await db.query<{
    silent_from: number;
    silent_to: number;
    state: string;
    cause: string;
    inferred: number;
  }>(
    `SELECT silent_from, silent_to, state, cause, inferred FROM device_health
     WHERE device_id = ? AND silent_from IS NOT NULL ORDER BY silent_to DESC, seq DESC LIMIT ?`,
    [deviceId, limit],
  );
  return rows.map((r) => {
    const from = new Date(Number(r.silent_from)).toISOString();
    const to = new Date(Number(r.silent_to)).toISOString();
    const inferred = Number(r.inferred) === 1;
    return {
      from,
      to,
      state: r.state,
      cause: r.cause,
      inferred,
      text: `silent from ${from} to ${to} because ${r.cause}${inferred ? ' (likely: not confirmed by the device)' : ''}`,
    };
  });
}
