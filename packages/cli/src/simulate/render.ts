import { formatTable } from '../table.js';
import type { DeviceReport } from './summary.js';

const dash = (value: number | null) => (value === null ? '-' : value);

/** The per-device result table, with a total row when there is more than one device. */
export function renderReports(
  reports: readonly DeviceReport[],
  extra: Record<string, (r: DeviceReport) => string | number> = {},
): string {
  const headers = [
    'device',
    'recorded',
    'delivered',
    'queued',
    'duplicates',
    'lost',
    'stored',
    'stored twice',
    'requests',
    'failed',
    ...Object.keys(extra),
  ];
  const row = (r: DeviceReport) => [
    r.device,
    r.recorded,
    r.delivered,
    r.queued,
    r.duplicates,
    r.lost,
    dash(r.stored),
    dash(r.storedTwice),
    r.requests,
    r.failedRequests,
    ...Object.values(extra).map((column) => column(r)),
  ];
  const rows = reports.map(row);
  if (reports.length > 1) {
    const sum = (pick: (r: DeviceReport) => number | null) =>
      reports.some((r) => pick(r) === null) ? '-' : reports.reduce((total, r) => total + (pick(r) ?? 0), 0);
    rows.push([
      'total',
      sum((r) => r.recorded),
      sum((r) => r.delivered),
      sum((r) => r.queued),
      sum((r) => r.duplicates),
      sum((r) => r.lost),
      sum((r) => r.stored),
      sum((r) => r.storedTwice),
      sum((r) => r.requests),
      sum((r) => r.failedRequests),
      ...Object.keys(extra).map(() => ''),
    ]);
  }
  return formatTable(headers, rows);
}
