import type { AppContext } from '../context.js';
import type { Command } from '../store/commands.js';
import type { DroppedReport } from '@waypost/sdk/internal';
import type { DeviceBatch } from './ingest-job.js';
import { checkDeviceId } from './validation.js';
import { noteReturn } from '../health/health-service.js';

export interface IngestResult {
  stored: number;
  duplicates: number;
  /** Records kept in quarantine instead of stored (issue 19): their uuid and reason code. */
  quarantined: { uuid: string | null; code: string }[];
  commands: Command[];
  /** Devices the fleet had declared silent that this request brought back. */
  returned: string[];
}

/**
 * Stores a request's records. Requests arriving together share one transaction (group commit,
 * see ingest-queue.ts), but each stands alone: a refused device or a failure stores nothing of that
 * request and does not touch the others. The pending commands of `commandsFor` are taken in the
 * same transaction, so they are marked delivered exactly when the reply that carries them is
 * committed; the promise resolves only after that commit.
 */
export async function ingest(
  ctx: AppContext,
  batches: DeviceBatch[],
  commandsFor: string | null,
  dropped: DroppedReport = [],
  /** The device whose health report rode on the request: its return is explained from that report. */
  reporting: string | null = null,
  /** Sent without a device token or key: refused (401 CREDENTIAL_REQUIRED) for a device holding one. */
  anonymous = false,
): Promise<IngestResult> {
  if (batches.length === 0 && commandsFor === null)
    return { stored: 0, duplicates: 0, quarantined: [], commands: [], returned: [] };
  // Ids from headers, query parameters and presets come here unchecked: one check for all routes.
  for (const batch of batches) checkDeviceId(batch.deviceId, 'The device id');
  // One request counts once per device it uploads for (429 with Retry-After when over the rate).
  for (const deviceId of new Set([...batches.map((b) => b.deviceId), ...(commandsFor ? [commandsFor] : [])]))
    ctx.rateLimiter.take('device', deviceId);
  const records = batches.reduce((sum, b) => sum + b.records.length + (b.quarantined?.length ?? 0), 0);
  const outcome = await ctx.ingestQueue.submit({ batches, commandsFor, dropped, anonymous }, Math.max(1, records));
  for (const { reason, range } of dropped)
    ctx.metrics.droppedReported.set(reason, (ctx.metrics.droppedReported.get(reason) ?? 0) + range[1] - range[0] + 1);
  ctx.metrics.stored += outcome.stored;
  ctx.metrics.duplicates += outcome.duplicates;
  ctx.metrics.quarantined += outcome.quarantinedNew;
  // Back from a silence without a report of its own (a tracker): named again, inferred (issue 31).
  for (const deviceId of outcome.returned) if (deviceId !== reporting) await noteReturn(ctx, deviceId);
  ctx.live.publish(
    outcome.lasts.map((last) => ({
      deviceId: last.deviceId,
      stored: last.stored,
      records: last.records,
      latitude: last.latitude,
      longitude: last.longitude,
      timestamp: new Date(last.recordedAt).toISOString(), // inside the checked window
    })),
  );
  return {
    stored: outcome.stored,
    duplicates: outcome.duplicates,
    quarantined: outcome.quarantined,
    commands: outcome.commands,
    returned: outcome.returned,
  };
}
