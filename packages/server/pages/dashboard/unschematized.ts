// The fields the pages read from routes that declare no reply schema yet (issue 42). Each entry is
// what the page reads, not a copy of the whole reply; when its route gains a response schema, the
// entry goes and its reader takes `Reply<route>` (api-types.ts) instead. Keep this list short.

/** GET /api/dashboard/devices/{id}/gaps: the ledger's holes placed in time (ms). */
export type Gap = {
  from: number | null;
  to: number | null;
  missing: number;
  first: number;
  last: number;
  fromPoint?: [number, number] | null;
  toPoint?: [number, number] | null;
};

/** GET /api/logs: the logs devices uploaded. */
export type UploadedLog = { id: number | string; deviceId: string; createdAt: string; size: number };

/** GET /dashboard-config.json (the page's own settings, not under /api). */
export type DashboardConfig = { sso?: boolean };
