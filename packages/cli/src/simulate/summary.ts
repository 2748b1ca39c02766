import type { AdminApi } from './admin-api.js';
import type { SimulatedDevice } from './device.js';

/** One row of the result table. Server-side columns are null when no admin token was given. */
export interface DeviceReport {
  device: string;
  /** Records that entered the device's queue during the run. */
  recorded: number;
  /** Records the device's uploads had acknowledged (2xx), by uuid. */
  delivered: number;
  /** Records still in the queue. */
  queued: number;
  /** Re-sent records the service recognised (from its admin API, else from its replies). */
  duplicates: number;
  /** Recorded uuids that are neither stored by the service (or acknowledged) nor still queued. */
  lost: number;
  /** Records the service stored for the device, and how many of its rows repeat a uuid. */
  stored: number | null;
  storedTwice: number | null;
  requests: number;
  failedRequests: number;
  remoteCommands: string[];
}

export async function buildReports(
  devices: readonly SimulatedDevice[],
  admin: AdminApi | null,
): Promise<DeviceReport[]> {
  const serverDevices = admin ? new Map((await admin.devices()).map((d) => [d.id, d])) : null;
  const reports: DeviceReport[] = [];
  for (const device of devices) {
    const queued = await device.queuedUuids();
    const server = admin ? await admin.storedRecords(device.id) : null;
    const serverDevice = serverDevices?.get(device.id);
    const accounted = server?.uuids ?? device.ledger.acknowledged;
    let lost = 0;
    for (const uuid of device.ledger.recorded) if (!accounted.has(uuid) && !queued.has(uuid)) lost++;
    let ok = 0;
    let failed = 0;
    for (const counts of device.requests.values()) {
      ok += counts.ok;
      failed += counts.failed;
    }
    const rows = serverDevice?.records ?? server?.rows ?? null;
    reports.push({
      device: device.id,
      recorded: device.ledger.recorded.size,
      delivered: device.ledger.acknowledged.size,
      queued: queued.size,
      duplicates: serverDevice ? serverDevice.duplicates : device.duplicatesReported,
      lost,
      stored: rows,
      // Rows beyond the distinct uuids: the service stored some record more than once.
      storedTwice: server && rows !== null ? Math.max(0, rows - server.uuids.size) : null,
      requests: ok + failed,
      failedRequests: failed,
      remoteCommands: device.remoteCommands.map((c) => `${c.command}${c.ok ? '' : ` failed: ${c.error ?? ''}`}`),
    });
  }
  return reports;
}

export const totalLost = (reports: readonly DeviceReport[]) => reports.reduce((sum, r) => sum + r.lost, 0);
