import type { DroppedReport } from '@waypost/sdk/internal';
import type { StoredRecord } from './normalize.js';
import type { QuarantinedRecord } from './verdicts.js';

/** Records of one device in a request: those to store, and those quarantined (issue 19). */
export interface DeviceBatch {
  deviceId: string;
  records: StoredRecord[];
  quarantined?: QuarantinedRecord[];
}

/** One request's work: its device batches, and the device whose pending commands ride on its reply. */
export interface IngestJob {
  batches: DeviceBatch[];
  commandsFor: string | null;
  /** Sequence numbers that device (commandsFor) reported dropped on purpose (Waypost-Dropped). */
  dropped?: DroppedReport;
  /** Sent without a device token or key: refused for a device that holds one (issue 41). */
  anonymous?: boolean;
}

/** Groups batches by device, keeping first-seen order. */
export function byDevice(batches: DeviceBatch[]): DeviceBatch[] {
  const groups = new Map<string, { records: StoredRecord[]; quarantined: QuarantinedRecord[] }>();
  for (const batch of batches) {
    const group = groups.get(batch.deviceId) ?? { records: [], quarantined: [] };
    group.records.push(...batch.records);
    group.quarantined.push(...(batch.quarantined ?? []));
    groups.set(batch.deviceId, group);
  }
  return [...groups].map(([deviceId, group]) => ({ deviceId, ...group }));
}
