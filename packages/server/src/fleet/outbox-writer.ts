import type { Geofence } from '@waypost/sdk/internal';
import type { Queryable } from '../db/database.js';
import type { StoredRecord } from '../ingest/normalize.js';
import { evaluateInOrder, evaluateLateSegment, type EvalPoint, type SegmentPoint } from './evaluate-device.js';
import { toFleetEvent, type DecidedEvent, type EventType, type FleetEvent } from './fleet-event.js';
import { loadDeviceStates, saveDeviceStates, type StoredDeviceState } from './device-state-store.js';
import { insertOutbox } from './outbox-store.js';
import type { FleetConfig } from './fleet-config.js';
import type { Sink } from './sinks-store.js';

export interface FleetIngestSettings {
  /** A record arriving more than this long after it was recorded makes late events. */
  lateAfterMs: number;
  /** The sinks and geofences as this process knows them (fleet-config.ts). */
  config: () => FleetConfig;
}

/** Stored records per late segment at most: beyond, the segment is evaluated from its own records. */
const MAX_SEGMENT_ROWS = 10_000;

const pointOf = (r: StoredRecord): EvalPoint | null =>
  r.latitude === null || r.longitude === null
    ? null
    : { uuid: r.uuid, t: r.recordedAt, lat: r.latitude, lon: r.longitude, record: r.record };

const byTime = (a: EvalPoint, b: EvalPoint): number => a.t - b.t || (a.uuid < b.uuid ? -1 : a.uuid > b.uuid ? 1 : 0);

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
  deviceId: string,
  behind: EvalPoint[],
  fences: readonly Geofence[],
  wanted: ReadonlySet<EventType>,
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
  return evaluateLateSegment(prior ? fromRow(prior) : null, segment, fences, wanted);
}

/** One device's events from the records this transaction stored for it. */
async function deviceEvents(
  tx: Queryable,
  deviceId: string,
  records: StoredRecord[],
  stored: StoredDeviceState,
  fences: readonly Geofence[],
  wanted: ReadonlySet<EventType>,
  now: number,
  settings: FleetIngestSettings,
): Promise<DecidedEvent[]> {
  const events: DecidedEvent[] = [];
  const newest = records.reduce((max, r) => Math.max(max, r.recordedAt), -Infinity);
  if (stored.silentSince !== null && wanted.has('device.active')) {
    // Keyed by the silence it ends, so the same silence never makes two different ids.
    const silentSince = new Date(stored.silentSince).toISOString();
    events.push({ type: 'device.active', at: newest, late: false, key: silentSince, data: { silentSince } });
  }
  const points = records.map(pointOf).filter((p): p is EvalPoint => p !== null);
  points.sort(byTime);
  const cursor = stored.cursor;
  const ahead = cursor === null ? points : points.filter((p) => p.t >= cursor);
  const behind = cursor === null ? [] : points.filter((p) => p.t < cursor);
  events.push(...evaluateInOrder(stored.state, ahead, fences, { wanted, receivedAt: now, ...settings }));
  if (behind.length > 0) events.push(...(await lateEvents(tx, deviceId, behind, fences, wanted)));
  if (ahead.length > 0) stored.cursor = Math.max(cursor ?? -Infinity, ahead[ahead.length - 1]!.t);
  stored.silentSince = null;
  return events;
}

/** Outbox rows: each event once per sink that wants its type. */
function fanOut(events: FleetEvent[], sinks: readonly Sink[]): { sink: Sink; event: FleetEvent }[] {
  const rows: { sink: Sink; event: FleetEvent }[] = [];
  for (const event of events)
    for (const sink of sinks) if (sink.events.includes(event.type)) rows.push({ sink, event });
  return rows;
}

/**
 * Decides the fleet events of the records one ingest transaction stored (fresh ones only: a resent
 * record makes none again) and writes them to the outbox in that same transaction, so a crash never
 * loses an event nor makes one without its records. Devices are locked by the caller (lockDevices),
 * so their states are read and written by one transaction at a time. Without sinks nothing happens,
 * not even a query.
 * Returns the outbox rows written.
 */
export async function writeFleetEvents(
  tx: Queryable,
  fresh: ReadonlyMap<string, StoredRecord[]>,
  now: number,
  settings: FleetIngestSettings,
): Promise<number> {
  if (fresh.size === 0) return 0;
  const { sinks, geofences: fences } = settings.config();
  if (sinks.length === 0) return 0;
  const wanted = new Set<EventType>(sinks.flatMap((s) => s.events));
  const states = await loadDeviceStates(tx, [...fresh.keys()]);
  const events: FleetEvent[] = [];
  for (const [deviceId, records] of fresh) {
    const stored = states.get(deviceId)!;
    const decided = await deviceEvents(tx, deviceId, records, stored, fences, wanted, now, settings);
    for (const event of decided) events.push(toFleetEvent(deviceId, event, now));
  }
  await saveDeviceStates(tx, [...states.values()]);
  const rows = fanOut(events, sinks);
  await insertOutbox(tx, rows, now);
  return rows.length;
}
