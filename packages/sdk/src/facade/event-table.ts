import type { GeofenceEvent, HeartbeatEvent, MotionActivityEvent, MotionChangeEvent } from '../anchor/anchor-events.js';
import { toAnchorLocation, type AnchorLocation } from '../anchor/anchor-location.js';
import type { Subscription } from '../events/emitter.js';
import type { SdkEvents } from '../events/types.js';
import type { Location, MotionActivityType } from '../records/location.js';
import type { LocationErrorCode } from '../tracking/position-requests.js';

/** What payload adapters read besides the engine's payload. */
export interface EventContext {
  /** The clock's now, for a location's `age`. */
  now(): number;
  /** The last known position, for events that carry one when no new fix came with them. */
  knownLocation(): Location | null;
}

/**
 * Turns the engine's payload into the anchor's, or null to deliver nothing (a motionchange while
 * no position is known). Made once per subscription, so an adapter may remember what it saw.
 */
type Adapter<S extends keyof SdkEvents, P> = (context: EventContext) => (raw: SdkEvents[S]) => P | null;

export interface EventRow<M extends string, S extends keyof SdkEvents, P> {
  /** The subscription method: `bg.onHttp(listener)`. */
  method: M;
  /** The engine event it follows (events/types.ts). */
  source: S;
  /** Absent: the engine's payload is the anchor's, handed over as it is. */
  adapt?: Adapter<S, P>;
}

function row<M extends string, S extends keyof SdkEvents, P = SdkEvents[S]>(
  method: M,
  source: S,
  adapt?: Adapter<S, P>,
): EventRow<M, S, P> {
  return adapt ? { method, source, adapt } : { method, source };
}

const view = (context: EventContext, location: Location): AnchorLocation => toAnchorLocation(location, context.now());

/**
 * Every event the application can subscribe to, once: keyed by the anchor's event name (what
 * addListener takes), with its `on*` method and payload. The facade's subscription methods and
 * their types are generated from this table (facade/event-group.ts).
 */
export const EVENT_TABLE = {
  location: { ...row('onLocation', 'location', (c) => (location) => view(c, location)), failure: true },
  motionchange: row('onMotionChange', 'motionchange', (c) => ({ isMoving, location }): MotionChangeEvent | null => {
    const known = location ?? c.knownLocation();
    return known ? { isMoving, location: view(c, known) } : null;
  }),
  /** Fires when a recorded location's activity differs from the previous one's. */
  activitychange: row('onActivityChange', 'location', () => {
    let previous: MotionActivityType | null = null;
    return ({ activity }): MotionActivityEvent | null => {
      if (activity.type === previous) return null;
      previous = activity.type;
      return { activity: activity.type, confidence: activity.confidence };
    };
  }),
  geofence: row(
    'onGeofence',
    'geofence',
    (c) =>
      ({ identifier, action, location, extras, geofence }): GeofenceEvent => ({
        timestamp: location.timestamp,
        identifier,
        action,
        location: view(c, location),
        extras,
        ...(geofence ? { geofence } : {}),
      }),
  ),
  geofenceschange: row('onGeofencesChange', 'geofenceschange'),
  http: row('onHttp', 'http'),
  heartbeat: row('onHeartbeat', 'heartbeat', (c) => ({ timestamp }): HeartbeatEvent | null => {
    const known = c.knownLocation();
    return known ? { location: view(c, known), timestamp } : null;
  }),
  providerchange: row('onProviderChange', 'providerchange'),
  authorization: row('onAuthorization', 'authorization'),
  connectivitychange: row('onConnectivityChange', 'connectivitychange'),
  enabledchange: row('onEnabledChange', 'enabledchange'),
  /** Waypost: each remote command the server sent, run or refused. */
  remotecommand: row('onRemoteCommand', 'remotecommand'),
  /** Waypost: records removed without delivery, with the reason (ttl, cap, destroyed) and how many. */
  drop: row('onDrop', 'drop'),
} as const;

/** Anchor event names that never fire on this platform (no scheduler, power-save, notifications). */
export const SILENT_EVENTS: ReadonlySet<string> = new Set([
  'schedule',
  'powersavechange',
  'notificationaction',
  'locationfilter',
  'boot',
  'terminate',
]);

type Table = typeof EVENT_TABLE;
export type EventName = keyof Table;
export type EventPayload<E extends EventName> = Table[E] extends EventRow<string, infer _S, infer P> ? P : never;

/** `onLocation(listener, onError?)` and the like: one per row, returning a Subscription. */
export type EventMethods = {
  [E in EventName as Table[E]['method']]: (
    listener: (payload: EventPayload<E>) => void,
    ...failure: Table[E] extends { failure: true } ? [onError?: (code: LocationErrorCode) => void] : []
  ) => Subscription;
};

export function isEventName(name: string): name is EventName {
  return Object.hasOwn(EVENT_TABLE, name);
}
