import type { Geofence } from '@waypost/sdk/internal';
import type { Queryable } from '../db/database.js';
import type { StoredRecord } from '../ingest/normalize.js';
import type { DeviceState } from '../store/ingest-devices.js';
import { evaluateInOrder, evaluateLateSegment, type EvalPoint, type SegmentPoint } from './evaluate-device.js';
import { DEFAULT_EVENT_TYPES, toFleetEvent, type DecidedEvent, type EventType } from './fleet-event.js';
import { parseDeviceState, saveDeviceStates, statesJson, type StoredDeviceState } from './device-state-store.js';
import { eventRowOf, eventsJson, writeEvents, type EventRow } from './event-rows.js';
import type { FleetWrites } from '../store/insert-with-totals.js';
import type { FleetConfig } from './fleet-config.js';
import type { Sink } from './sinks-store.js';

export interface FleetIngestSettings {
  /** A record arriving more than this long after it was recorded makes late events. */
  lateAfterMs: number;
  /** The sinks and geofences the transaction decides with: those of the version it read first. */
  config: FleetConfig;
}

/** What one ingest transaction decides events with. */
export interface FleetContext {
  sinks: readonly Sink[];
  /** The geofences a device of this org (null: none) is evaluated against: the fleet's and its org's. */
  fencesOf: (org: string | null) => readonly Geofence[];
  /** The history's types (all but `location`) and whatever a sink wants besides. */
  wanted: ReadonlySet<EventType>;
  now: number;
  lateAfterMs: number;
}

const wantedByConfig = new WeakMap<FleetConfig, ReadonlySet<EventType>>();
const fencesByConfig = new WeakMap<FleetConfig, Map<string | null, readonly Geofence[]>>();

/**
 * The geofences of one org's devices, one list per org and configuration (the same list each
 * time: evaluation keeps its bounding boxes per list). Without org geofences, the whole list.
 */
function fencesOf(config: FleetConfig): (org: string | null) => readonly Geofence[] {
  if (!config.geofences.some((fence) => fence.org !== undefined)) return () => config.geofences;
  let lists = fencesByConfig.get(config);
  if (!lists) fencesByConfig.set(config, (lists = new Map()));
  const cache = lists;
  return (org) => {
    let list = cache.get(org);
    if (!list) {
      list = config.geofences.filter((fence) => fence.org === undefined || fence.org === org);
      cache.set(org, list);
    }
    return list;
  };
}

export function fleetContext(settings: FleetIngestSettings, now: number): FleetContext {
  const config = settings.config;
  let wanted = wantedByConfig.get(config);
  if (!wanted) {
    // Decided with or without sinks: the history (the dashboard's timeline) keeps them.
    const types = new Set<EventType>(DEFAULT_EVENT_TYPES);
    for (const sink of config.sinks) for (const type of sink.events) types.add(type);
    wantedByConfig.set(config, (wanted = types));
  }
  return { sinks: config.sinks, fencesOf: fencesOf(config), wanted, now, lateAfterMs: settings.lateAfterMs };
}

/** What a transaction decided before (or without) reading the database again. */
export interface FleetDecision {
  /** The devices whose state changed, to be stored. */
  states: StoredDeviceState[];
  /** Events of the records in each device's order, each device's in a row. */
  rows: EventRow[];
  /** Per device, the records behind ones evaluated before: their events need the stored track. */
  behind: Map<string, EvalPoint[]>;
  /** Each device's org (null: none): its geofences and the sinks its events go to. */
  orgs: Map<string, string | null>;
}

const byTime = (a: EvalPoint, b: EvalPoint): number => a.t - b.t || (a.uuid < b.uuid ? -1 : a.uuid > b.uuid ? 1 : 0);

function pointsOf(records: readonly StoredRecord[], withRecord: boolean): EvalPoint[] {
  const points: EvalPoint[] = [];
  let sorted = true;
  for (const r of records) {
    if (r.latitude === null || r.longitude === null) continue;
    const point: EvalPoint = { uuid: r.uuid, t: r.recordedAt, lat: r.latitude, lon: r.longitude };
    if (withRecord) point.record = r.record;
    const previous = points[points.length - 1];
    if (previous && byTime(previous, point) > 0) sorted = false;
    points.push(point);
  }
  // Devices send their records in time order: sorting is the exception.
  return sorted ? points : points.sort(byTime);
}

/**
 * The events of records a transaction stores, in each device's recorded-time order, and the states
 * after them. Pure: the caller writes both in the transaction that stores the records (PostgreSQL
 * in the same statement), so a crash never loses an event nor makes one without its records.
 * `records`: per device, the records stored now (a resent one makes no event again).
 */
export function decideGroup(
  ctx: FleetContext,
  devices: ReadonlyMap<string, DeviceState>,
  records: ReadonlyMap<string, readonly StoredRecord[]>,
): FleetDecision {
  const decision: FleetDecision = { states: [], rows: [], behind: new Map(), orgs: new Map() };
  const settings = { wanted: ctx.wanted, receivedAt: ctx.now, lateAfterMs: ctx.lateAfterMs };
  const withRecord = ctx.wanted.has('location');
  for (const [deviceId, stored] of records) {
    const raw = devices.get(deviceId)?.eventState ?? null;
    const org = devices.get(deviceId)?.org?.name ?? null;
    decision.orgs.set(deviceId, org);
    const state = parseDeviceState(deviceId, raw);
    const events: DecidedEvent[] = [];
    if (state.silentSince !== null) {
      // Keyed by the silence it ends, so the same silence never makes two different ids.
      const silentSince = new Date(state.silentSince).toISOString();
      const newest = stored.reduce((max, r) => Math.max(max, r.recordedAt), -Infinity);
      events.push({ type: 'device.active', at: newest, late: false, key: silentSince, data: { silentSince } });
    }
    const points = pointsOf(stored, withRecord);
    const cursor = state.cursor;
    // Usually every record is at or after the cursor (no copy then); those behind it are late.
    const allAhead = cursor === null || points.length === 0 || points[0]!.t >= cursor;
    const ahead = allAhead ? points : points.filter((p) => p.t >= cursor);
    if (!allAhead)
      decision.behind.set(
        deviceId,
        points.filter((p) => p.t < cursor),
      );
    events.push(...evaluateInOrder(state.state, ahead, ctx.fencesOf(org), settings));
    if (ahead.length === 0 && state.silentSince === null && raw !== null) continue; // nothing changed
    if (ahead.length > 0) state.cursor = Math.max(cursor ?? -Infinity, ahead[ahead.length - 1]!.t);
    state.silentSince = null;
    decision.states.push(state);
    for (const event of events) decision.rows.push(eventRowOf(toFleetEvent(deviceId, event, ctx.now), event.at, org));
  }
  return decision;
}

/** Stored records per late segment at most: beyond, the segment is evaluated from its own records. */
const MAX_SEGMENT_ROWS = 10_000;

type LocationPoint = { uuid: string; recorded_at: number; latitude: number; longitude: number };
const fromRow = (row: LocationPoint): EvalPoint => ({
  uuid: row.uuid,
  t: Number(row.recorded_at),
  lat: row.latitude,
  lon: row.longitude,
});

/** The late segment's events: the stored records around and among the arriving ones, read back. */
async function lateEvents(
  tx: Queryable,
  ctx: FleetContext,
  deviceId: string,
  behind: EvalPoint[],
  org: string | null,
): Promise<DecidedEvent[]> {
  const from = behind[0]!.t;
  const to = behind[behind.length - 1]!.t;
  const columns = 'uuid, recorded_at, latitude, longitude';
  const positioned = 'device_id = ? AND latitude IS NOT NULL AND longitude IS NOT NULL';
  const [prior] = await tx.query<LocationPoint>(
    `SELECT ${columns} FROM locations WHERE ${positioned} AND recorded_at < ? ORDER BY recorded_at DESC, id DESC LIMIT 1`,
    [deviceId, from],
  );
  const among = await tx.query<LocationPoint>(
    `SELECT ${columns} FROM locations WHERE ${positioned} AND recorded_at >= ? AND recorded_at <= ? ORDER BY recorded_at, id LIMIT ?`,
    [deviceId, from, to, behind.length + MAX_SEGMENT_ROWS],
  );
  const [next] = await tx.query<LocationPoint>(
    `SELECT ${columns} FROM locations WHERE ${positioned} AND recorded_at > ? ORDER BY recorded_at, id LIMIT 1`,
    [deviceId, to],
  );
  const arriving = new Map(behind.map((p) => [p.uuid, p]));
  const segment: SegmentPoint[] =
    among.length === behind.length + MAX_SEGMENT_ROWS
      ? behind.map((p) => ({ ...p, arriving: true }))
      : among.map((row) => {
          const mine = arriving.get(row.uuid);
          return mine ? { ...mine, arriving: true } : { ...fromRow(row), arriving: false };
        });
  if (next) segment.push({ ...fromRow(next), arriving: false });
  return evaluateLateSegment(prior ? fromRow(prior) : null, segment, ctx.fencesOf(org), ctx.wanted);
}

/**
 * What decideGroup decided, for PostgreSQL's ingest statement to write beside the records; taken
 * only when it stores all `all` records it was decided from. outboxRows: what it then writes there.
 */
export function fleetWrites(
  ctx: FleetContext,
  decision: FleetDecision,
  all: number,
): FleetWrites & { outboxRows: number } {
  const { history, outbox, outboxRows } = eventsJson(decision.rows, ctx.sinks);
  return { states: statesJson(decision.states), history, outbox, outboxRows, all };
}

/** Writes what decideGroup decided: the states, the events (history and outbox). Returns outbox rows. */
export async function writeDecision(tx: Queryable, ctx: FleetContext, decision: FleetDecision): Promise<number> {
  await saveDeviceStates(tx, decision.states);
  return writeEvents(tx, decision.rows, ctx.sinks, ctx.now);
}

/**
 * The events of records that arrived behind ones already evaluated (out of order, or days late),
 * in device time and marked late, written after the in-order ones (each device's order holds).
 * They read the stored track, so they come after the insert. Returns the outbox rows written.
 */
export async function writeLateEvents(tx: Queryable, ctx: FleetContext, decision: FleetDecision): Promise<number> {
  const rows: EventRow[] = [];
  for (const [deviceId, behind] of decision.behind) {
    const org = decision.orgs.get(deviceId) ?? null;
    for (const event of await lateEvents(tx, ctx, deviceId, behind, org))
      rows.push(eventRowOf(toFleetEvent(deviceId, event, ctx.now), event.at, org));
  }
  return rows.length === 0 ? 0 : writeEvents(tx, rows, ctx.sinks, ctx.now);
}
