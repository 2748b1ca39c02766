/** What the SDK says about the device it runs on (log uploads, records' device fields). */
export interface DeviceInfo {
  uuid: string;
  model: string;
  manufacturer: string;
  platform: string;
  version: string;
}

export function deviceInfo(given: Partial<DeviceInfo> = {}): DeviceInfo {
  return {
    uuid: given.uuid ?? 'unknown',
    model: given.model ?? 'unknown',
    manufacturer: given.manufacturer ?? 'unknown',
    platform: given.platform ?? 'unknown',
    version: given.version ?? 'unknown',
  };
}
