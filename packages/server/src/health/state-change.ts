import type { HealthReport } from '@waypost/sdk/internal';
import type { AppContext } from '../context.js';
import { eventRowOf, writeEvents, type EventRow } from '../fleet/event-rows.js';
import { toFleetEvent, type DecidedEvent } from '../fleet/fleet-event.js';
import { listSinks } from '../fleet/sinks-store.js';
import type { NamedState } from './decide-state.js';
import { saveNamedState } from './health-store.js';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The fleet event `device.state` for a change; its id comes from the change and when the new state began. */
export function stateChangeRow(
  deviceId: string,
  previous: NamedState | null,
  named: NamedState,
  now: number,
  /** When the change happened (the moment a device became silent), default now. */
  at = now,
): EventRow {
  const event: DecidedEvent = {
    type: 'device.state',
    at,
    late: false,
    key: `${previous?.state ?? ''}/${previous?.cause ?? ''}>${named.state}/${named.cause}/${named.inferred}@${named.since ?? now}`,
    data: {
      state: named.state,
      cause: named.cause,
      inferred: named.inferred,
      since: iso(named.since),
      previous: previous === null ? null : { state: previous.state, cause: previous.cause },
    },
  };
  return eventRowOf(toFleetEvent(deviceId, event, now), at);
}

/**
 * A device's named state changed with a report it sent: kept (devices.health_state, a history
 * row) and told as `device.state`, in one transaction, so a sink hears of exactly the changes the
 * history keeps. (The silence check does the same in its own transaction: fleet/silence.ts.)
 */
export async function recordStateChange(
  ctx: AppContext,
  deviceId: string,
  previous: NamedState | null,
  named: NamedState,
  report: HealthReport | null,
): Promise<void> {
  const now = ctx.now();
  const written = await ctx.db.transaction(async (tx) => {
    await saveNamedState(tx, deviceId, named, report, now);
    return writeEvents(tx, [stateChangeRow(deviceId, previous, named, now)], await listSinks(tx), now);
  });
  if (written > 0) ctx.fleet.wake();
}
