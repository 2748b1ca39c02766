/**
 * The agent's name on the server. A server needs to know which device an upload comes from, and
 * Waypost's refuses an upload that does not say (NO_DEVICE). Where the name comes from, first that
 * applies: --device-id (or "deviceId" in --config); a name the configuration already gives
 * (http.params.device_id, or the anchor's `device` object with its uuid); else this host's name and
 * the first 8 characters of the persistent device uuid kept in the database, as
 * `raspberrypi-3f2a9c1e`: readable on a dashboard, and distinct for hosts that share a name.
 * The name goes where every upload shape carries it: http.params.device_id, plus the X-Device-Id
 * header when rootProperty "." leaves batches no place for params. It is saved with the
 * configuration, so the name does not change when the host is renamed.
 */
import type { JsonObject } from '@waypost/node';

export type IdentitySource = 'flag' | 'config' | 'host';

export interface HttpIdentityConfig {
  params: JsonObject;
  headers: Record<string, string>;
  rootProperty: string;
}

export interface Identity {
  deviceId: string;
  source: IdentitySource;
  /** The http settings to apply (setConfig), or null when the configuration already carries the name. */
  http: Partial<HttpIdentityConfig> | null;
}

/** The name the params already give, as the server reads it (device_id, else device.uuid). */
function namedIn(params: JsonObject): string | null {
  const id = params['device_id'];
  if (typeof id === 'string' && id.trim() !== '') return id;
  const device = params['device'];
  if (typeof device === 'string' && device.trim() !== '') return device;
  if (device !== null && typeof device === 'object') {
    const uuid = (device as JsonObject)['uuid'];
    if (typeof uuid === 'string' && uuid.trim() !== '') return uuid;
  }
  return null;
}

/** Pure: which name, from where, and what the http configuration needs for the server to read it. */
export function decideIdentity(flag: string | undefined, http: HttpIdentityConfig, hostName: string): Identity {
  const configured = namedIn(http.params);
  const deviceId = flag ?? configured ?? hostName;
  const source: IdentitySource = flag !== undefined ? 'flag' : configured !== null ? 'config' : 'host';
  const changes: Partial<HttpIdentityConfig> = {};
  if (configured !== deviceId) changes.params = { ...http.params, device_id: deviceId };
  if (http.rootProperty === '.' && http.headers['X-Device-Id'] !== deviceId) {
    changes.headers = { ...http.headers, 'X-Device-Id': deviceId };
  }
  return { deviceId, source, http: Object.keys(changes).length === 0 ? null : changes };
}

/** `host-3f2a9c1e`: the host name reduced to characters safe anywhere, and a piece of the device uuid. */
export function hostDeviceName(host: string, deviceUuid: string): string {
  const safe = host
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, 63);
  return `${safe || 'waypost-agent'}-${deviceUuid.replace(/-/g, '').slice(0, 8)}`;
}

export const IDENTITY_SOURCES: Record<IdentitySource, string> = {
  flag: '--device-id',
  config: 'the configuration',
  host: 'this host, kept in the database',
};
