import type { Database, Queryable } from '../db/database.js';
import { decideWithConfig } from './config-version.js';
import type { FleetConfig } from './fleet-config.js';
import { lockDevices } from '../store/ingest-devices.js';
import { closeDeviceTrip } from './evaluate-device.js';
import { DEFAULT_EVENT_TYPES, toFleetEvent, type DecidedEvent, type EventType } from './fleet-event.js';
import { parseDeviceState, saveDeviceStates, type StoredDeviceState } from './device-state-store.js';
import { eventRowOf, writeEvents, type EventRow } from './event-rows.js';
import { decideDeviceState, sameState } from '../health/decide-state.js';
import { deviceHealthRow, saveNamedState } from '../health/health-store.js';
import { stateChangeRow } from '../health/state-change-row.js';

/** Devices declared silent per check at most (the next check takes the rest). */
const PER_CHECK = 200;

/**
 * Declares silent the devices with no upload for `silentAfterMs` (server time): device.silent, and
 * the end of a trip still open, written to the history and the outbox in one transaction with the state that says
 * so. The devices are locked and re-read inside it, so of several processes checking at once only
 * one declares a device silent, and an upload committing meanwhile wins. Returns the outbox rows
 * written (the delivery worker is woken when there are some).
 */
export async function checkSilence(
  db: Database,
  now: number,
  silentAfterMs: number,
  /** The configuration at the version the transaction read (fleet-config.ts): its sinks get the events. */
  configAt: (tx: Queryable, version: number) => Promise<FleetConfig>,
): Promise<number> {
  if (silentAfterMs <= 0) return 0;
  const since = now - silentAfterMs;
  // Devices evaluated before (a state), not declared silent yet, and quiet since `since`.
  const silentSql = `SELECT d.id, d.last_seen, d.event_cursor AS cursor FROM devices d
    WHERE d.event_state IS NOT NULL AND d.event_silent_since IS NULL AND d.last_seen < ?`;
  const candidates = await db.query<{ id: string }>(`${silentSql} ORDER BY d.id LIMIT ?`, [since, PER_CHECK]);
  if (candidates.length === 0) return 0;
  return decideWithConfig(db, async (tx, version) => {
    const ids = candidates.map((c) => c.id);
    const devices = await lockDevices(tx, db.dialect, ids);
    const rows = await tx.query<{ id: string; last_seen: number; cursor: number | null }>(
      `${silentSql} AND d.id IN (${ids.map(() => '?').join(', ')})`,
      [since, ...ids],
    );
    if (rows.length === 0) return 0;
    const { sinks } = await configAt(tx, version);
    // Decided with or without sinks: the history keeps them.
    const wanted = new Set<EventType>([...DEFAULT_EVENT_TYPES, ...sinks.flatMap((s) => s.events)]);
    const states: StoredDeviceState[] = [];
    const events: EventRow[] = [];
    for (const row of rows) {
      const state = parseDeviceState(row.id, devices.get(row.id)?.eventState ?? null);
      states.push(state);
      const lastSeen = Number(row.last_seen);
      const decided: DecidedEvent[] = closeDeviceTrip(state.state, wanted);
      // Why it is quiet, as well as the server can tell (docs/device-health.md): from its last
      // health report or its records, so always inferred.
      const health = await deviceHealthRow(tx, row.id);
      const named = health ? decideDeviceState({ ...health.inputs, now, silentAfterMs }) : null;
      if (health && named && !sameState(health.named, named)) {
        // The change silence makes is kept and told like one a report makes (health/state-change.ts).
        await saveNamedState(tx, row.id, named, health.inputs.report, now);
        events.push(stateChangeRow(row.id, health.named, named, now, Number(row.last_seen) + silentAfterMs));
      }
      decided.push({
        type: 'device.silent',
        at: lastSeen + silentAfterMs,
        late: false,
        key: `silent:${lastSeen}`,
        data: {
          lastSeen: new Date(lastSeen).toISOString(),
          lastRecordedAt: row.cursor === null ? null : new Date(Number(row.cursor)).toISOString(),
          silentAfterSeconds: silentAfterMs / 1000,
          ...(named ? { state: named.state, cause: named.cause, inferred: named.inferred } : {}),
        },
      });
      state.silentSince = now;
      for (const event of decided) events.push(eventRowOf(toFleetEvent(row.id, event, now), event.at));
    }
    await saveDeviceStates(tx, states);
    return writeEvents(tx, events, sinks, now);
  });
}
