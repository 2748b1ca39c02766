import type { HealthReport } from '@waypost/sdk/internal';
import type { AppContext } from '../context.js';
import { eventRowOf, writeEvents } from '../fleet/event-rows.js';
import { toFleetEvent, type DecidedEvent } from '../fleet/fleet-event.js';
import { listSinks } from '../fleet/sinks-store.js';
import type { NamedState } from './decide-state.js';
import { saveNamedState } from './health-store.js';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/**
 * A device's named state changed: kept (devices.health_state, a history row) and told as the fleet
 * event `device.state`, in one transaction, so a sink hears of exactly the changes the history keeps.
 * The event's id comes from the change and when the new state began: a repeat is one event.
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
    const event: DecidedEvent = {
      type: 'device.state',
      at: now,
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
    return writeEvents(tx, [eventRowOf(toFleetEvent(deviceId, event, now), now)], await listSinks(tx), now);
  });
  if (written > 0) ctx.fleet.wake();
}
