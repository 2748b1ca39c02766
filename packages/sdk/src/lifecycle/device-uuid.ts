import type { Store } from '../ports/store.js';

/**
 * The device's uuid: the caller's when given, else the one made on first open and kept in the
 * store, so a device keeps its identity across restarts on every platform.
 */
export async function persistentDeviceUuid(store: Store, given?: string): Promise<string> {
  if (given) return given;
  const saved = await store.kv.get('device.uuid');
  if (saved) return saved;
  const uuid = globalThis.crypto.randomUUID();
  await store.kv.set('device.uuid', uuid);
  return uuid;
}
