import { createHash } from 'node:crypto';

/** Every event type a sink can receive; `location` only when a sink asks for it. */
export const EVENT_TYPES = [
  'geofence.enter',
  'geofence.exit',
  'geofence.dwell',
  'device.silent',
  'device.active',
  /** The health state the server names for a device changed (docs/device-health.md). */
  'device.state',
  'trip.start',
  'trip.end',
  'location',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** What a sink receives when it names no event types: everything but the per-record `location`. */
export const DEFAULT_EVENT_TYPES: readonly EventType[] = EVENT_TYPES.filter((type) => type !== 'location');

/** One fleet event as every sink receives it (JSON). */
export interface FleetEvent {
  /** Stable: the same event always has the same id, so receivers deduplicate redeliveries. */
  id: string;
  type: EventType;
  device: string;
  /** When it happened, in device time (ISO 8601). */
  timestamp: string;
  /** When the server learned of it (ISO 8601). */
  receivedAt: string;
  /** Decided from records that arrived out of order or long after they were recorded. */
  late: boolean;
  data: Record<string, unknown>;
}

/** An event decided by the evaluation, before it has an id and receive time. */
export interface DecidedEvent {
  type: EventType;
  /** Device time, epoch ms. */
  at: number;
  late: boolean;
  data: Record<string, unknown>;
  /** What makes it unique for its device and type (a record uuid and a geofence, say): the id's source. */
  key: string;
}

/**
 * A stable event id from what the event is about: the same record crossing the same fence gives
 * the same id in every process and on every retry. 128 bits of SHA-256, base64url.
 */
export function eventId(device: string, type: EventType, key: string): string {
  const digest = createHash('sha256').update(`${device}\u0000${type}\u0000${key}`).digest('base64url');
  return `evt_${digest.slice(0, 22)}`;
}

export function toFleetEvent(device: string, decided: DecidedEvent, receivedAt: number): FleetEvent {
  return {
    id: eventId(device, decided.type, decided.key),
    type: decided.type,
    device,
    timestamp: new Date(decided.at).toISOString(),
    receivedAt: new Date(receivedAt).toISOString(),
    late: decided.late,
    data: decided.data,
  };
}

/** Parses a sink's event filter: a list of known event types (null: the default set). */
export function parseEventFilter(value: unknown): EventType[] | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value) || value.length === 0 || value.length > EVENT_TYPES.length)
    throw new Error(`events must be a non-empty list of ${EVENT_TYPES.join(', ')}`);
  for (const type of value) {
    if (!EVENT_TYPES.includes(type as EventType))
      throw new Error(`events: unknown event type ${JSON.stringify(String(type).slice(0, 40))}`);
  }
  return [...new Set(value as EventType[])];
}
