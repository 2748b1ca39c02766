import { WaypostError } from '../errors.js';
import type { Emitter, Subscription } from '../events/emitter.js';
import type {
  AuthorizationEvent,
  ConnectivityChangeEvent,
  GeofencesChangeEvent,
  HttpEvent,
  ProviderChangeEvent,
  RemoteCommandEvent,
  SdkEvents,
} from '../events/types.js';
import type { Geofence } from '../geofence/geofence.js';
import type { Clock } from '../ports/clock.js';
import type { GeofenceAction, Location, MotionActivityType } from '../records/location.js';
import { toAnchorLocation, type AnchorLocation } from './anchor-location.js';
import type { LocationErrorCode } from '../tracking/position-requests.js';

/** The anchor's event payloads, as its types declare them. */
export interface MotionChangeEvent {
  isMoving: boolean;
  location: AnchorLocation;
}
export interface HeartbeatEvent {
  location: AnchorLocation;
  /** Waypost: when the heartbeat fired (the location may be older). */
  timestamp: string;
}
export interface GeofenceEvent {
  timestamp: string;
  identifier: string;
  action: GeofenceAction;
  location: AnchorLocation;
  extras: Record<string, unknown>;
  geofence?: Geofence;
}
export interface MotionActivityEvent {
  activity: MotionActivityType;
  confidence: number;
}

/** What the event methods need from the instance. */
export interface EventSource {
  events: Emitter<SdkEvents>;
  clock: Clock;
  /** The last known position, for events that carry one when no new fix came with them. */
  knownLocation(): Location | null;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- addListener takes any event's callback, as the anchor's does
type AnyCallback = (...args: any[]) => unknown;

/** Anchor event names that never fire on this platform (no scheduler, power-save, notifications). */
const SILENT_EVENTS = new Set([
  'schedule',
  'powersavechange',
  'notificationaction',
  'locationfilter',
  'boot',
  'terminate',
]);

/**
 * The anchor's event API: `on*` methods returning a Subscription, and addListener /
 * removeListener / removeListeners by event name. Listeners get the anchor's payloads; events
 * that need a position (motionchange, heartbeat) are delivered once one is known.
 */
export abstract class AnchorEvents {
  protected abstract readonly eventSource: EventSource;
  private readonly named = new Map<string, Map<AnyCallback, Subscription>>();
  /** The application's subscriptions (the SDK's own listeners are not among them). */
  private readonly subscriptions = new Set<Subscription>();

  private listen<K extends keyof SdkEvents>(event: K, listener: (payload: SdkEvents[K]) => void): Subscription {
    const inner = this.eventSource.events.on(event, listener);
    const subscription = {
      remove: () => {
        inner.remove();
        this.subscriptions.delete(subscription);
      },
    };
    this.subscriptions.add(subscription);
    return subscription;
  }

  private view(location: Location): AnchorLocation {
    return toAnchorLocation(location, this.eventSource.clock.now());
  }

  onLocation(cb: (location: AnchorLocation) => void, _onError?: (code: LocationErrorCode) => void): Subscription {
    return this.listen('location', (location) => cb(this.view(location)));
  }
  onMotionChange(cb: (event: MotionChangeEvent) => void): Subscription {
    return this.listen('motionchange', ({ isMoving, location }) => {
      const known = location ?? this.eventSource.knownLocation();
      if (known) cb({ isMoving, location: this.view(known) });
    });
  }
  onHeartbeat(cb: (event: HeartbeatEvent) => void): Subscription {
    return this.listen('heartbeat', ({ timestamp }) => {
      const known = this.eventSource.knownLocation();
      if (known) cb({ location: this.view(known), timestamp });
    });
  }
  onGeofence(cb: (event: GeofenceEvent) => void): Subscription {
    return this.listen('geofence', ({ identifier, action, location, extras, geofence }) =>
      cb({
        timestamp: location.timestamp,
        identifier,
        action,
        location: this.view(location),
        extras,
        ...(geofence ? { geofence } : {}),
      }),
    );
  }
  onGeofencesChange(cb: (event: GeofencesChangeEvent) => void): Subscription {
    return this.listen('geofenceschange', cb);
  }
  /** Fires when a recorded location's activity differs from the previous one's. */
  onActivityChange(cb: (event: MotionActivityEvent) => void): Subscription {
    let previous: MotionActivityType | null = null;
    return this.listen('location', ({ activity }) => {
      if (activity.type === previous) return;
      previous = activity.type;
      cb({ activity: activity.type, confidence: activity.confidence });
    });
  }
  onProviderChange(cb: (event: ProviderChangeEvent) => void): Subscription {
    return this.listen('providerchange', cb);
  }
  onHttp(cb: (event: HttpEvent) => void): Subscription {
    return this.listen('http', cb);
  }
  onConnectivityChange(cb: (event: ConnectivityChangeEvent) => void): Subscription {
    return this.listen('connectivitychange', cb);
  }
  onAuthorization(cb: (event: AuthorizationEvent) => void): Subscription {
    return this.listen('authorization', cb);
  }
  onEnabledChange(cb: (enabled: boolean) => void): Subscription {
    return this.listen('enabledchange', cb);
  }
  /** Waypost: each remote command the server sent, run or refused. */
  onRemoteCommand(cb: (event: RemoteCommandEvent) => void): Subscription {
    return this.listen('remotecommand', cb);
  }

  /** Waypost: records removed without delivery, with the reason (ttl, cap, destroyed) and how many. */
  onDrop(cb: (event: SdkEvents['drop']) => void): Subscription {
    return this.listen('drop', cb);
  }

  /** The anchor's addListener: the same as the `on*` method of that event name. */
  addListener(event: string, success: AnyCallback, failure?: AnyCallback): void {
    const subscription = this.subscribeByName(event, success, failure);
    if (!subscription) return;
    let byCallback = this.named.get(event);
    if (!byCallback) this.named.set(event, (byCallback = new Map()));
    byCallback.get(success)?.remove();
    byCallback.set(success, subscription);
  }

  removeListener(event: string, cb: AnyCallback): void {
    this.named.get(event)?.get(cb)?.remove();
    this.named.get(event)?.delete(cb);
  }

  /** Removes every listener, whichever way it was added. */
  async removeListeners(): Promise<void> {
    this.named.clear();
    for (const subscription of [...this.subscriptions]) subscription.remove();
  }

  private subscribeByName(event: string, success: AnyCallback, failure?: AnyCallback): Subscription | null {
    switch (event) {
      case 'location':
        return this.onLocation(success, failure);
      case 'motionchange':
        return this.onMotionChange(success);
      case 'activitychange':
        return this.onActivityChange(success);
      case 'geofence':
        return this.onGeofence(success);
      case 'geofenceschange':
        return this.onGeofencesChange(success);
      case 'http':
        return this.onHttp(success);
      case 'heartbeat':
        return this.onHeartbeat(success);
      case 'providerchange':
        return this.onProviderChange(success);
      case 'authorization':
        return this.onAuthorization(success);
      case 'connectivitychange':
        return this.onConnectivityChange(success);
      case 'enabledchange':
        return this.onEnabledChange(success);
      case 'remotecommand':
        return this.onRemoteCommand(success);
      case 'drop':
        return this.onDrop(success);
    }
    if (SILENT_EVENTS.has(event)) return null;
    throw new WaypostError('NOT_SUPPORTED', `addListener: unknown event "${event}".`, event);
  }
}
