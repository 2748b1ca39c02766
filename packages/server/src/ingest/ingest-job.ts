import type { StoredRecord } from './normalize.js';

/** Records of one device in a request. */
export interface DeviceBatch {
  deviceId: string;
  records: StoredRecord[];
}

/** One request's work: its device batches, and the device whose pending commands ride on its reply. */
export interface IngestJob {
  batches: DeviceBatch[];
  commandsFor: string | null;
}

/** Groups batches by device, keeping first-seen order. */
export function byDevice(batches: DeviceBatch[]): DeviceBatch[] {
  const groups = new Map<string, StoredRecord[]>();
  for (const batch of batches) {
    const records = groups.get(batch.deviceId) ?? [];
    records.push(...batch.records);
    groups.set(batch.deviceId, records);
  }
  return [...groups].map(([deviceId, records]) => ({ deviceId, records }));
}
