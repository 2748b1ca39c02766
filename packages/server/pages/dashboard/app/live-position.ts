// A position the live feed (GET /api/events, server-sent events) tells of. The stream is no route
// with a reply schema, so its message is checked here before the page reads it: a message that is
// not a position is dropped, never drawn at NaN.
import type { DeviceInfo } from '../device-info.js';
import { unlistedDevice } from './fleet-devices.js';

/** The fields the page reads of a `position` event (the server's PositionEvent, live-events.ts). */
export type LivePosition = {
  deviceId: string;
  latitude: number;
  longitude: number;
  timestamp: string;
  /** Records the commit stored; `records`: the device's count once it is in, when told. */
  stored: number;
  records?: number;
};

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** The position in an event's data, or null when it holds none. */
export function livePosition(data: string): LivePosition | null {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return null;
  }
  if (!isRecord(value)) return null;
  const { deviceId, latitude, longitude, timestamp, stored, records } = value;
  if (typeof deviceId !== 'string' || typeof latitude !== 'number' || typeof longitude !== 'number') return null;
  if (typeof timestamp !== 'string') return null;
  return {
    deviceId,
    latitude,
    longitude,
    timestamp,
    stored: typeof stored === 'number' ? stored : 0,
    ...(typeof records === 'number' ? { records } : {}),
  };
}

/** What the page knows of a device after a live position (`known`: its info before, if listed). */
export function infoAfter(position: LivePosition, known: DeviceInfo | undefined): DeviceInfo {
  const info = known ?? unlistedDevice(position.deviceId);
  return {
    ...info,
    // The device's count after the commit told (a catch-up or a replay after a reconnect tells
    // the count as the database has it): never counted twice, never back.
    records: Math.max(info.records || 0, position.records ?? (info.records || 0) + position.stored),
    lastSeen: new Date().toISOString(),
    lastPosition: { latitude: position.latitude, longitude: position.longitude, timestamp: position.timestamp },
  };
}
