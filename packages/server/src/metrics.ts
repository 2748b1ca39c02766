import type { FleetLedgerTotals } from './ledger/fleet-ledger.js';

/** Counters of this process, rendered in Prometheus' text format. */
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
  /** The text, with the fleet's ledger totals when known (gauges). */
  render(ledger?: FleetLedgerTotals): string;
}

export function createMetrics(): Metrics {
  const metrics: Metrics = {
    stored: 0,
    duplicates: 0,
    quarantined: 0,
    rejected: 0,
    droppedReported: new Map(),
    requestsByStatus: new Map(),
    rateLimited: new Map(),
    render(ledger) {
      const lines = [
        '# HELP waypost_records_stored_total Location records stored (first time seen).',
        '# TYPE waypost_records_stored_total counter',
        `waypost_records_stored_total ${metrics.stored}`,
        '# HELP waypost_records_duplicate_total Location records received again and not stored.',
        '# TYPE waypost_records_duplicate_total counter',
        `waypost_records_duplicate_total ${metrics.duplicates}`,
        '# HELP waypost_records_quarantined_total Location records kept in quarantine (the rest of their request stored).',
        '# TYPE waypost_records_quarantined_total counter',
        `waypost_records_quarantined_total ${metrics.quarantined}`,
        '# HELP waypost_records_rejected_total Location records in rejected requests.',
        '# TYPE waypost_records_rejected_total counter',
        `waypost_records_rejected_total ${metrics.rejected}`,
        '# HELP waypost_records_dropped_total Records devices reported dropped undelivered (ttl, cap, destroyed).',
        '# TYPE waypost_records_dropped_total counter',
        ...['ttl', 'cap', 'destroyed'].map(
          (reason) => `waypost_records_dropped_total{reason="${reason}"} ${metrics.droppedReported.get(reason) ?? 0}`,
        ),
        '# HELP waypost_http_requests_total HTTP requests answered, by status.',
        '# TYPE waypost_http_requests_total counter',
      ];
      for (const [status, count] of [...metrics.requestsByStatus].sort((a, b) => a[0] - b[0])) {
        lines.push(`waypost_http_requests_total{status="${status}"} ${count}`);
      }
      lines.push(
        '# HELP waypost_rate_limited_total Requests refused with 429, by what was limited.',
        '# TYPE waypost_rate_limited_total counter',
      );
      for (const scope of ['device', 'address', 'login']) {
        lines.push(`waypost_rate_limited_total{scope="${scope}"} ${metrics.rateLimited.get(scope) ?? 0}`);
      }
      if (ledger) {
        lines.push(
          '# HELP waypost_ledger_devices Devices whose delivery ledger is known (numbered records seen).',
          '# TYPE waypost_ledger_devices gauge',
          `waypost_ledger_devices ${ledger.devices}`,
          '# HELP waypost_ledger_devices_incomplete Devices with sequence numbers missing.',
          '# TYPE waypost_ledger_devices_incomplete gauge',
          `waypost_ledger_devices_incomplete ${ledger.incomplete}`,
          '# HELP waypost_ledger_missing Sequence numbers neither received, quarantined nor reported dropped, fleet-wide.',
          '# TYPE waypost_ledger_missing gauge',
          `waypost_ledger_missing ${ledger.missing}`,
        );
      }
      return `${lines.join('\n')}\n`;
    },
  };
  return metrics;
}
