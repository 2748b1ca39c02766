import type { FastifyRequest } from 'fastify';
import { HEALTH_HEADER, parseHealthHeader, type HealthReport } from '@waypost/sdk/internal';
import type { AppContext } from '../context.js';
import { decideDeviceState, DEVICE_STATES, type DeviceState, type NamedState } from './decide-state.js';
import {
  deviceHealthRow,
  fleetHealthRows,
  saveHealthReport,
  saveNamedState,
  type DeviceHealthRow,
} from './health-store.js';

/**
 * The device health report an upload carries (Waypost-Health), or null. A header that does not
 * parse is ignored with a log line (code HEALTH_HEADER_INVALID): it never fails the upload.
 */
export function healthReportOf(request: FastifyRequest): HealthReport | null {
  const header = request.headers[HEALTH_HEADER];
  if (typeof header !== 'string' || header.trim() === '') return null;
  const parsed = parseHealthHeader(header);
  if (parsed.ok) return parsed.report;
  request.log.warn({ code: 'HEALTH_HEADER_INVALID' }, `Waypost-Health header ignored: ${parsed.why}`);
  return null;
}

const same = (a: NamedState | null, b: NamedState) =>
  a !== null && a.state === b.state && a.cause === b.cause && a.inferred === b.inferred;

/** Names a device's state from its row now; a change is kept (devices.health_state and the history). */
async function nameRow(ctx: AppContext, row: DeviceHealthRow): Promise<NamedState> {
  const now = ctx.now();
  const named = decideDeviceState({ ...row.inputs, now, silentAfterMs: ctx.options.fleet.silentAfterMs });
  if (!same(row.named, named)) await saveNamedState(ctx.db, row.id, named, row.inputs.report, now);
  return named;
}

/** An upload carried a report: it is kept, and the device's state named from it. */
export async function noteHealthReport(ctx: AppContext, deviceId: string, report: HealthReport): Promise<void> {
  await saveHealthReport(ctx.db, deviceId, report, ctx.now());
  const row = await deviceHealthRow(ctx.db, deviceId);
  if (row) await nameRow(ctx, row);
}

/** One device's health answer; null when no such device. */
export async function deviceHealth(ctx: AppContext, deviceId: string) {
  const row = await deviceHealthRow(ctx.db, deviceId);
  if (!row) return null;
  const named = await nameRow(ctx, row);
  return { row, named };
}

/** The fleet's devices (not deleted) with their state, and the counts by state. */
export async function fleetHealth(ctx: AppContext) {
  const rows = await fleetHealthRows(ctx.db);
  const counts = Object.fromEntries(DEVICE_STATES.map((s) => [s, 0])) as Record<DeviceState, number>;
  const devices: { id: string; named: NamedState }[] = [];
  for (const row of rows) {
    const named = await nameRow(ctx, row);
    counts[named.state]++;
    devices.push({ id: row.id, named });
  }
  return { counts, devices };
}
