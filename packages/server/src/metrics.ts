import type { RoundReport } from './fleet/fleet-log.js';

/**
 * This process's counters, kept as plain numbers where they are counted (the upload path adds to
 * them per request: no library call there). metrics-exposition.ts renders them with prom-client.
 */
export interface Metrics {
  stored: number;
  duplicates: number;
  /** Records kept in quarantine: their request succeeded, they were not stored (issue 19). */
  quarantined: number;
  rejected: number;
  /** Sequence numbers devices reported dropped on purpose (Waypost-Dropped), by reason. */
  droppedReported: Map<string, number>;
  requestsByStatus: Map<number, number>;
  /** Requests refused with 429, by what was limited (device, address, login). */
  rateLimited: Map<string, number>;
  /** Uploads refused for their device credential (issue 40/41), by code. */
  refusedCredentials: Map<string, number>;
  /** Fleet events this process delivered, and deliveries that failed, by sink id. */
  delivered: Map<string, number>;
  deliveryFailures: Map<string, number>;
  /** Events sent again whose earlier attempt's outcome was never recorded, by sink id. */
  resentInDoubt: Map<string, number>;
  /** Adds one delivery round's outcome for its sink. */
  countRound(report: RoundReport): void;
}

const add = <K>(map: Map<K, number>, key: K, n: number) => map.set(key, (map.get(key) ?? 0) + n);

export function createMetrics(): Metrics {
  const metrics: Metrics = {
    stored: 0,
    duplicates: 0,
    quarantined: 0,
    rejected: 0,
    droppedReported: new Map(),
    requestsByStatus: new Map(),
    rateLimited: new Map(),
    refusedCredentials: new Map(),
    delivered: new Map(),
    deliveryFailures: new Map(),
    resentInDoubt: new Map(),
    countRound(report) {
      if ((report.inDoubt ?? 0) > 0) add(metrics.resentInDoubt, report.sinkId, report.inDoubt!);
      if (report.delivered > 0) add(metrics.delivered, report.sinkId, report.delivered);
      if (report.failed > 0) add(metrics.deliveryFailures, report.sinkId, report.failed);
    },
  };
  return metrics;
}
