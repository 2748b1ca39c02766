import { WaypostError } from '../errors.js';
import type { Emitter, Subscription } from '../events/emitter.js';
import type { SdkEvents } from '../events/types.js';
import {
  EVENT_TABLE,
  isEventName,
  SILENT_EVENTS,
  type EventContext,
  type EventMethods,
  type EventName,
  type EventRow,
} from './event-table.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- addListener takes any event's callback, as the anchor's does
type AnyCallback = (...args: any[]) => unknown;

/** The anchor's subscriptions by event name, beside the `on*` methods. */
export interface ListenerMethods {
  /** The same as the `on*` method of that event name; again with the same callback replaces it. */
  addListener(event: string, success: AnyCallback, failure?: AnyCallback): void;
  removeListener(event: string, cb: AnyCallback): void;
  /** Removes every listener the application added, whichever way it was added. */
  removeListeners(): Promise<void>;
}

export type EventGroup = EventMethods & ListenerMethods;

/**
 * The anchor's event API, generated from EVENT_TABLE: one `on*` method per row returning a
 * Subscription, and addListener / removeListener / removeListeners by the rows' names. The SDK's
 * own listeners on `emitter` are not the application's: removeListeners leaves them.
 */
export function eventGroup(emitter: Emitter<SdkEvents>, context: EventContext): EventGroup {
  const subscriptions = new Set<Subscription>();
  const named = new Map<string, Map<AnyCallback, Subscription>>();

  function subscribe(name: EventName, listener: AnyCallback): Subscription {
    const { source, adapt } = EVENT_TABLE[name] as EventRow<string, keyof SdkEvents, unknown>;
    const toPayload = adapt?.(context);
    const inner = emitter.on(
      source,
      toPayload
        ? (raw) => {
            const payload = toPayload(raw);
            if (payload !== null) listener(payload);
          }
        : listener,
    );
    const subscription = {
      remove: () => {
        inner.remove();
        subscriptions.delete(subscription);
      },
    };
    subscriptions.add(subscription);
    return subscription;
  }

  const on = Object.fromEntries(
    (Object.keys(EVENT_TABLE) as EventName[]).map((name) => [
      EVENT_TABLE[name].method,
      (listener: AnyCallback) => subscribe(name, listener),
    ]),
  ) as EventMethods;

  return {
    ...on,
    addListener(event, success) {
      if (!isEventName(event)) {
        if (SILENT_EVENTS.has(event)) return;
        throw new WaypostError('NOT_SUPPORTED', `addListener: unknown event "${event}".`, event);
      }
      let byCallback = named.get(event);
      if (!byCallback) named.set(event, (byCallback = new Map()));
      byCallback.get(success)?.remove();
      byCallback.set(success, subscribe(event, success));
    },
    removeListener(event, cb) {
      named.get(event)?.get(cb)?.remove();
      named.get(event)?.delete(cb);
    },
    async removeListeners() {
      named.clear();
      for (const subscription of [...subscriptions]) subscription.remove();
    },
  };
}
