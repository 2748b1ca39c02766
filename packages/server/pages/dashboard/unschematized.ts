// The fields the pages read from routes that declare no reply schema yet (issue 42). Each entry is
// what the page reads, not a copy of the whole reply; when its route gains a response schema, the
// entry goes and its reader takes `Reply<route>` (api-types.ts) instead. Keep this list short.

/** GET /api/logs: the logs devices uploaded. */
export type UploadedLog = { id: number | string; deviceId: string; createdAt: string; size: number };

/** GET /dashboard-config.json (the page's own settings, not under /api). */
export type DashboardConfig = { sso?: boolean };

/** GET /api/health (and GET /api/devices/{id}/health): the state the server names for a device. */
export type Health = {
  id?: string;
  state: string;
  cause: string;
  since?: string | null;
  inferred?: boolean;
};

/** GET /api/devices/{id}/health: a device's state with what it said and what the server saw. */
export type HealthDetail = Health & {
  report?: { queued?: number; oldestAge?: number } | null;
  reportedAt?: string | null;
  authRefused?: { code?: string; at: string } | null;
  lastSeen?: string | null;
};

/** A silent period of the delivery ledger's timeline (GET /api/devices/{id}/ledger). */
export type SilentPeriod = { from: string; to: string; cause: string; inferred?: boolean };

/** GET /api/geofences: the server's geofences. */
export type ServerGeofence = {
  identifier: string;
  latitude: number;
  longitude: number;
  radius: number;
  vertices?: [number, number][] | null;
};

/** GET /api/session: who is logged in ({} for the admin token). */
export type Session = { user?: string; role?: string; orgs?: string[] | null; groups?: string[] | null };

/** GET /api/groups: the device groups. */
export type DeviceGroup = { name: string; devices: string[] };

/** A user's limits (GET /api/users): null for all devices. */
export type Limits = { orgs: string[] | null; groups: string[] | null };

/** One numbering's account of the delivery ledger (GET /api/devices/{id}/ledger). */
export type LedgerAccount = { missing: number; highestSequence: number; missingRanges: [number, number][] };
export type Ledger = LedgerAccount & {
  restarted?: boolean;
  restartedAt: number | null;
  epochCount?: number;
  epochs: (LedgerAccount & { firstReceivedAt: number | null })[];
  dropped: Record<string, number>;
  received: number;
  duplicates: number;
  quarantined: number;
  silentPeriods?: unknown;
};

/** GET /api/devices/{id}/quarantine: records the server refused to store. */
export type QuarantinedRecord = { id: number | string; code: string; message: string; raw: string; receivedAt: string };

/** GET /api/users: the users and what each may see. */
export type UserAccount = Limits & { name: string; role: string };

/** GET /api/orgs: the organizations. */
export type Org = { name: string; status?: string };

/** GET /api/sinks: an event sink with its backlog; POST /api/sinks answers one with its secret. */
export type Sink = {
  id: string;
  kind: string;
  url?: string | null;
  pending?: number;
  dead: number;
  paused?: boolean;
  lastError?: string | null;
  secret?: string;
};

/** GET /api/sinks/{id}/dead-letters: events a sink could not deliver. */
export type DeadLetter = { event: { type: string; device?: string; timestamp: string }; lastError?: string | null };
