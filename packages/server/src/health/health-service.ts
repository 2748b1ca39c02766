import type { FastifyRequest } from 'fastify';
import { HEALTH_HEADER, parseHealthHeader, type HealthReport } from '@waypost/sdk/internal';
import type { AppContext } from '../context.js';
import {
  CAUSES,
  decideDeviceState,
  DEVICE_STATES,
  sameState,
  type Cause,
  type DeviceState,
  type NamedState,
} from './decide-state.js';
import { deviceHealthRow, fleetHealthRows, saveHealthReport, type DeviceHealthRow } from './health-store.js';
import { recordStateChange } from './state-change.js';
import { explainReturn, saveSilentPeriod } from './silent-period.js';

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

/** A device's state from its row, now. Pure reading: a GET never writes. */
const nameNow = (ctx: AppContext, row: DeviceHealthRow): NamedState =>
  decideDeviceState({ ...row.inputs, now: ctx.now(), silentAfterMs: ctx.options.fleet.silentAfterMs });

/**
 * An upload carried a report: it is kept, and the device's state named from it. A device back from
 * a silence has that silence explained from this report first (health/silent-period.ts).
 */
export async function noteHealthReport(ctx: AppContext, deviceId: string, report: HealthReport): Promise<void> {
  const now = ctx.now();
  // One read: the state named before this report (for the silence it may end) and the inputs.
  const row = await deviceHealthRow(ctx.db, deviceId);
  if (!row) return;
  const period = explainReturn(row.named, report, now, ctx.options.fleet.silentAfterMs);
  if (period) await saveSilentPeriod(ctx.db, deviceId, period, report, now);
  await saveHealthReport(ctx.db, deviceId, report, now);
  const named = nameNow(ctx, { ...row, inputs: { ...row.inputs, report, reportAt: now } });
  if (!sameState(row.named, named)) await recordStateChange(ctx, row.id, row.named, named, report);
}

/**
 * A device back after a silence with no report on this upload: a tracker that sends none has its
 * period kept (inferred) and its state named and told. A device that sent reports before explains
 * its silence with its next one (a restarted app's first upload carries it: kv health.offers).
 */
export async function noteReturn(ctx: AppContext, deviceId: string): Promise<void> {
  const row = await deviceHealthRow(ctx.db, deviceId);
  if (!row || row.inputs.report !== null) return;
  await explainSilence(ctx, deviceId, null);
  await nameAndRecord(ctx, deviceId);
}

/** A device back after a silence (its report, or null for a tracker without one): the period is kept. */
export async function explainSilence(ctx: AppContext, deviceId: string, report: HealthReport | null): Promise<void> {
  const row = await deviceHealthRow(ctx.db, deviceId);
  if (!row) return;
  const period = explainReturn(row.named, report, ctx.now(), ctx.options.fleet.silentAfterMs);
  if (period) await saveSilentPeriod(ctx.db, deviceId, period, report, ctx.now());
}

/** Names a device from what the server holds now, and keeps and tells a change. */
export async function nameAndRecord(ctx: AppContext, deviceId: string): Promise<void> {
  const row = await deviceHealthRow(ctx.db, deviceId);
  if (!row) return;
  // A change the report makes is kept (history) and told (device.state); the silence check
  // does the same for devices that go quiet (fleet/silence.ts).
  const named = nameNow(ctx, row);
  if (!sameState(row.named, named)) await recordStateChange(ctx, row.id, row.named, named, row.inputs.report);
}

/** One device's health answer; null when no such device. */
export async function deviceHealth(ctx: AppContext, deviceId: string) {
  const row = await deviceHealthRow(ctx.db, deviceId);
  if (!row) return null;
  return { row, named: nameNow(ctx, row) };
}

/** One series of the fleet's counts by cause: every cause, certain and likely, listed (0 included). */
export interface CauseCount {
  state: DeviceState;
  cause: Cause;
  inferred: boolean;
  count: number;
}

/**
 * The fleet's counts by state and by cause (each cause with its state, certain or likely), read
 * only (a /metrics scrape writes nothing). Bounded: 21 causes x 2, whatever the fleet.
 */
export async function fleetCounts(
  ctx: AppContext,
): Promise<{ states: Record<DeviceState, number>; causes: CauseCount[] }> {
  const states = Object.fromEntries(DEVICE_STATES.map((s) => [s, 0])) as Record<DeviceState, number>;
  const causes = new Map<string, CauseCount>();
  for (const cause of Object.keys(CAUSES) as Cause[]) {
    for (const inferred of [false, true]) {
      causes.set(`${cause}/${inferred}`, { state: CAUSES[cause], cause, inferred, count: 0 });
    }
  }
  const now = ctx.now();
  for (const row of await fleetHealthRows(ctx.db)) {
    const named = decideDeviceState({ ...row.inputs, now, silentAfterMs: ctx.options.fleet.silentAfterMs });
    states[named.state]++;
    causes.get(`${named.cause}/${named.inferred}`)!.count++;
  }
  return { states, causes: [...causes.values()] };
}

/** The fleet's devices (not deleted) with their state, and the counts by state. */
export async function fleetHealth(ctx: AppContext) {
  const rows = await fleetHealthRows(ctx.db);
  const counts = Object.fromEntries(DEVICE_STATES.map((s) => [s, 0])) as Record<DeviceState, number>;
  const devices: { id: string; named: NamedState }[] = [];
  for (const row of rows) {
    const named = nameNow(ctx, row);
    counts[named.state]++;
    devices.push({ id: row.id, named });
  }
  return { counts, devices };
}
