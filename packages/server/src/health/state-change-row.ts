import { eventRowOf, type EventRow } from '../fleet/event-rows.js';
import { toFleetEvent, type DecidedEvent } from '../fleet/fleet-event.js';
import type { NamedState } from './decide-state.js';

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
