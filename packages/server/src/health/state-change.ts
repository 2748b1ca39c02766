import type { HealthReport } from '@waypost/sdk/internal';
import type { AppContext } from '../context.js';
import { writeEvents } from '../fleet/event-rows.js';
import { listSinks } from '../fleet/sinks-store.js';
import type { NamedState } from './decide-state.js';
import { saveNamedState } from './health-store.js';
import { stateChangeRow } from './state-change-row.js';

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
