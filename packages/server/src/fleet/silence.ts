import type { Database } from '../db/database.js';
import { lockDevices } from '../store/devices.js';
import { closeDeviceTrip } from './evaluate-device.js';
import { toFleetEvent, type DecidedEvent, type EventType, type FleetEvent } from './fleet-event.js';
import { loadDeviceStates, saveDeviceStates } from './device-state-store.js';
import { insertOutbox } from './outbox-store.js';
import { listSinks } from './sinks-store.js';

/** Devices declared silent per check at most (the next check takes the rest). */
const PER_CHECK = 200;

/**
 * Declares silent the devices with no upload for `silentAfterMs` (server time): device.silent, and
 * the end of a trip still open, written to the outbox in one transaction with the state that says
 * so. The devices are locked and re-read inside it, so of several processes checking at once only
 * one declares a device silent, and an upload committing meanwhile wins. Returns the rows written.
 */
export async function checkSilence(db: Database, now: number, silentAfterMs: number): Promise<number> {
  if (silentAfterMs <= 0) return 0;
  const since = now - silentAfterMs;
  const silentSql = `SELECT d.id, d.last_seen, s.cursor FROM device_event_state s JOIN devices d ON d.id = s.device_id
    WHERE s.silent_since IS NULL AND d.last_seen < ?`;
  const candidates = await db.query<{ id: string }>(`${silentSql} ORDER BY d.id LIMIT ?`, [since, PER_CHECK]);
  if (candidates.length === 0) return 0;
  return db.transaction(async (tx) => {
    const ids = candidates.map((c) => c.id);
    await lockDevices(tx, db.dialect, ids);
    const rows = await tx.query<{ id: string; last_seen: number; cursor: number | null }>(
      `${silentSql} AND d.id IN (${ids.map(() => '?').join(', ')})`,
      [since, ...ids],
    );
    if (rows.length === 0) return 0;
    const sinks = await listSinks(tx);
    const wanted = new Set<EventType>(sinks.flatMap((s) => s.events));
    const states = await loadDeviceStates(
      tx,
      rows.map((r) => r.id),
    );
    const events: FleetEvent[] = [];
    for (const row of rows) {
      const state = states.get(row.id)!;
      const lastSeen = Number(row.last_seen);
      const decided: DecidedEvent[] = closeDeviceTrip(state.state, wanted);
      if (wanted.has('device.silent')) {
        decided.push({
          type: 'device.silent',
          at: lastSeen + silentAfterMs,
          late: false,
          key: `silent:${lastSeen}`,
          data: {
            lastSeen: new Date(lastSeen).toISOString(),
            lastRecordedAt: row.cursor === null ? null : new Date(Number(row.cursor)).toISOString(),
            silentAfterSeconds: silentAfterMs / 1000,
          },
        });
      }
      state.silentSince = now;
      for (const event of decided) events.push(toFleetEvent(row.id, event, now));
    }
    await saveDeviceStates(tx, [...states.values()]);
    const outbox = events.flatMap((event) =>
      sinks.filter((sink) => sink.events.includes(event.type)).map((sink) => ({ sink, event })),
    );
    await insertOutbox(tx, outbox, now);
    return outbox.length;
  });
}
