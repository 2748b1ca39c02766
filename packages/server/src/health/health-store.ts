import { parseHealthHeader, formatHealthHeader, type HealthReport } from '@waypost/sdk/internal';
import type { Queryable } from '../db/database.js';
import type { DeviceStatus } from '../store/devices.js';
import { lastRecordOf } from './last-record.js';
import { CAUSES, type Cause, type HealthInputs, type NamedState } from './decide-state.js';

/** Stores a device's newest health report (the header's own text: bounded, parsed on reading). */
export async function saveHealthReport(db: Queryable, deviceId: string, report: HealthReport, at: number) {
  await db.run(`UPDATE devices SET health_report = ?, health_at = ? WHERE id = ?`, [
    formatHealthHeader(report),
    at,
    deviceId,
  ]);
}

/** What the decision needs of one device, and the state last named for it. */
export interface DeviceHealthRow {
  id: string;
  inputs: Omit<HealthInputs, 'now' | 'silentAfterMs'>;
  /** The state last named (health_state), null before any. */
  named: NamedState | null;
  /** What the last refused request (credentials, size, depth, rate...) carried: that request's word only. */
  refusedReport: HealthReport | null;
  refusedCode: string | null;
}

interface Row {
  id: string;
  status: DeviceStatus;
  last_seen: number | null;
  health_report: string | null;
  health_at: number | null;
  health_state: string | null;
  last_record: string | null;
  auth_refused_at: number | null;
  auth_refused_since: number | null;
  auth_refused_code: string | null;
  auth_refused_report: string | null;
  refused_cause: string | null;
}

const SELECT = `SELECT d.id, d.status, d.last_seen, d.health_report, d.health_at, d.health_state,
  d.auth_refused_at, d.auth_refused_since, d.auth_refused_code, d.auth_refused_report, d.refused_cause,
  (SELECT l.record FROM locations l WHERE l.device_id = d.id ORDER BY l.recorded_at DESC LIMIT 1) AS last_record
  FROM devices d`;

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

function reportOf(text: string | null): HealthReport | null {
  const parsed = text === null ? null : parseHealthHeader(text);
  return parsed?.ok ? parsed.report : null;
}

/** A refusal's stored cause; none (a refusal of credentials, before issue 39) or unknown: its credentials. */
const refusedCauseOf = (text: string | null): Cause =>
  text !== null && Object.hasOwn(CAUSES, text) ? (text as Cause) : 'auth-refused';

function toRow(row: Row): DeviceHealthRow {
  const parsed = row.health_report === null ? null : parseHealthHeader(row.health_report);
  return {
    id: row.id,
    inputs: {
      status: row.status,
      lastSeen: num(row.last_seen),
      report: parsed?.ok ? parsed.report : null,
      reportAt: num(row.health_at),
      lastRecord: lastRecordOf(row.last_record),
      refused:
        row.auth_refused_at === null
          ? null
          : {
              at: Number(row.auth_refused_at),
              since: Number(row.auth_refused_since ?? row.auth_refused_at),
              cause: refusedCauseOf(row.refused_cause),
            },
    },
    named: parseNamed(row.health_state),
    refusedReport: reportOf(row.auth_refused_report),
    refusedCode: row.auth_refused_code,
  };
}

function parseNamed(text: string | null): NamedState | null {
  if (text === null) return null;
  try {
    return JSON.parse(text) as NamedState;
  } catch {
    return null;
  }
}

export async function deviceHealthRow(db: Queryable, deviceId: string): Promise<DeviceHealthRow | null> {
  const rows = await db.query<Row & Record<string, unknown>>(`${SELECT} WHERE d.id = ?`, [deviceId]);
  return rows[0] ? toRow(rows[0]) : null;
}

/** Every device not deleted, in id order. */
export async function fleetHealthRows(db: Queryable): Promise<DeviceHealthRow[]> {
  const rows = await db.query<Row & Record<string, unknown>>(`${SELECT} WHERE d.status <> 'deleted' ORDER BY d.id`);
  return rows.map(toRow);
}

/** The state changed from what was last named: kept on the device and added to its history. */
export async function saveNamedState(
  db: Queryable,
  deviceId: string,
  state: NamedState,
  report: HealthReport | null,
  now: number,
): Promise<void> {
  await db.run(`UPDATE devices SET health_state = ? WHERE id = ?`, [JSON.stringify(state), deviceId]);
  await db.run(
    `INSERT INTO device_health (device_id, at, state, cause, inferred, since, report) VALUES (?, ?, ?, ?, ?, ?, ?)`,
    [
      deviceId,
      now,
      state.state,
      state.cause,
      state.inferred ? 1 : 0,
      state.since,
      report === null ? null : formatHealthHeader(report),
    ],
  );
}

export interface HistoryEntry {
  at: string;
  state: string;
  cause: string;
  inferred: boolean;
  since: string | null;
  /** A silent period explained once the device was back (then `cause` is why it was silent). */
  silentFrom?: string;
  silentTo?: string;
}

/** The newest `limit` states named for a device, newest first. */
export async function healthHistory(db: Queryable, deviceId: string, limit: number): Promise<HistoryEntry[]> {
  const rows = await db.query<{
    at: number;
    state: string;
    cause: string;
    inferred: number;
    since: number | null;
    silent_from: number | null;
    silent_to: number | null;
  }>(
    `SELECT at, state, cause, inferred, since, silent_from, silent_to FROM device_health WHERE device_id = ? ORDER BY at DESC, seq DESC LIMIT ?`,
    [deviceId, limit],
  );
  return rows.map((r) => ({
    at: new Date(Number(r.at)).toISOString(),
    state: r.state,
    cause: r.cause,
    inferred: Number(r.inferred) === 1,
    since: r.since === null ? null : new Date(Number(r.since)).toISOString(),
    ...(r.silent_from === null || r.silent_to === null
      ? {}
      : {
          silentFrom: new Date(Number(r.silent_from)).toISOString(),
          silentTo: new Date(Number(r.silent_to)).toISOString(),
        }),
  }));
}
