/** Where the device of an upload was named, in the order the names win. */
export type DeviceSource = 'token' | 'body' | 'outside';

export interface UploadingDevice {
  deviceId: string;
  source: DeviceSource;
}

/** The names an upload may carry for its device; null where it carries none. */
export interface DeviceNames {
  /** The subject of a valid device access token. */
  token: string | null;
  /** device_id, device.uuid (or device.id, or device) in the body. */
  body: string | null;
  /** The X-Device-Id header, else ?device_id= (for bodies with no place for params). */
  outside: string | null;
}

/**
 * The one rule for every upload route: the device is the token's subject, else the body's device
 * id, else the header or query. A token always wins, so a device holding a token can never write
 * into another device by naming it in the body.
 */
export function uploadingDevice(names: DeviceNames): UploadingDevice | null {
  if (names.token !== null) return { deviceId: names.token, source: 'token' };
  if (names.body !== null) return { deviceId: names.body, source: 'body' };
  if (names.outside !== null) return { deviceId: names.outside, source: 'outside' };
  return null;
}
