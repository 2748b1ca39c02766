import type { AppContext } from '../context.js';
import { HttpError } from '../errors.js';
import { takePendingCommands, type Command } from '../store/commands.js';
import { ensureDevice, recordIngest, type DeviceStatus } from '../store/devices.js';
import { insertLocations } from '../store/locations.js';
import type { StoredRecord } from './normalize.js';

/** Records of one device in a request. */
export interface DeviceBatch {
  deviceId: string;
  records: StoredRecord[];
}

export interface IngestResult {
  stored: number;
  duplicates: number;
  commands: Command[];
}

const STOP: Command = ['stop'];

/** The reply for a device that may not upload: nothing is stored, and the device is told to stop. */
export function refuseDevice(deviceId: string, status: DeviceStatus): HttpError | null {
  if (status === 'deleted') {
    return new HttpError(410, 'DEVICE_DELETED', `Device ${deviceId} was deleted on this server`, {
      background_geolocation: STOP,
    });
  }
  if (status === 'blocked') {
    return new HttpError(403, 'DEVICE_BLOCKED', `Device ${deviceId} is blocked on this server`, {
      background_geolocation: STOP,
    });
  }
  return null;
}

/**
 * Stores a request's records in one transaction: a refused device or a failure stores nothing.
 * The pending commands of `commandsFor` are taken in the same transaction, so they are marked
 * delivered exactly when the reply that carries them is committed.
 */
export async function ingest(
  ctx: AppContext,
  batches: DeviceBatch[],
  commandsFor: string | null,
): Promise<IngestResult> {
  const now = ctx.now();
  const watched = ctx.events.watched;
  const result = await ctx.db.transaction(async (tx) => {
    let stored = 0;
    let duplicates = 0;
    const lasts = [];
    for (const batch of batches) {
      const refusal = refuseDevice(batch.deviceId, await ensureDevice(tx, batch.deviceId, now));
      if (refusal) throw refusal;
      const counts = await insertLocations(tx, batch.deviceId, batch.records, now);
      await recordIngest(tx, batch.deviceId, now, counts);
      stored += counts.stored;
      duplicates += counts.duplicates;
      if (watched && counts.last) lasts.push({ deviceId: batch.deviceId, stored: counts.stored, ...counts.last });
    }
    const commands = commandsFor ? await takePendingCommands(tx, commandsFor, now) : [];
    return { stored, duplicates, commands, lasts };
  });
  ctx.metrics.stored += result.stored;
  ctx.metrics.duplicates += result.duplicates;
  for (const last of result.lasts) {
    ctx.events.emit('position', {
      deviceId: last.deviceId,
      stored: last.stored,
      latitude: last.latitude,
      longitude: last.longitude,
      timestamp: new Date(last.recordedAt).toISOString(),
    });
  }
  return { stored: result.stored, duplicates: result.duplicates, commands: result.commands };
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
