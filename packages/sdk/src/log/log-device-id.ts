import type { HttpConfig } from '../config/types.js';

const named = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null);

/**
 * The name the device's location uploads give the server (http.params.device_id, else
 * params.device or params.device.uuid, else the X-Device-Id header, the order in which a server
 * reads them); null when they name none (a device token names it then).
 */
export function uploadDeviceName(http: Pick<HttpConfig, 'params' | 'headers'>): string | null {
  const params = http.params as Record<string, unknown>;
  const device = params['device'];
  const header = Object.entries(http.headers).find(([name]) => name.toLowerCase() === 'x-device-id')?.[1];
  return (
    named(params['device_id']) ??
    named(device) ??
    (device !== null && typeof device === 'object' ? named((device as Record<string, unknown>)['uuid']) : null) ??
    named(header)
  );
}

/**
 * The `device_id` field of a log upload: the name the device's location uploads already give the
 * server (uploadDeviceName), else the device uuid. A log sent under the uuid of a device that
 * uploads as "truck-17" would be filed under a device the server never heard of.
 */
export function logDeviceId(http: Pick<HttpConfig, 'params' | 'headers'>, deviceUuid: string): string {
  return uploadDeviceName(http) ?? deviceUuid;
}
