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

/** GET /api/dashboard/devices/{id}/events: the motion changes and geofence crossings a device recorded. */
export type RecordedEvent = {
  recordedAt: number;
  event?: string;
  isMoving?: boolean;
  record?: unknown;
  latitude?: number;
  longitude?: number;
};

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

/** GET /api/dashboard/commands: the commands a device takes. */
export type CommandInfo = { name: string; takes: string; argument?: boolean };

/** GET /api/geofences: the server's geofences. */
export type ServerGeofence = {
  identifier: string;
  latitude: number;
  longitude: number;
  radius: number;
  vertices?: [number, number][] | null;
};

/** GET /api/dashboard/devices: a device as the list shows it. */
export type DeviceInfo = {
  id: string;
  name?: string | null;
  model?: string | null;
  status?: string;
  records?: number;
  lastSeen?: string | null;
  quarantined?: number;
  lastPosition?: { latitude: number; longitude: number; timestamp: string } | null;
  health?: Health | null;
};

/** GET /api/session: who is logged in ({} for the admin token). */
export type Session = { user?: string; role?: string; orgs?: string[] | null; groups?: string[] | null };

/** GET /api/groups: the device groups. */
export type DeviceGroup = { name: string; devices: string[] };

/** A user's limits (GET /api/users): null for all devices. */
export type Limits = { orgs: string[] | null; groups: string[] | null };

/** GET /api/shares: a device's share links; POST /api/shares answers one with its url. */
export type ShareLink = {
  id: string;
  active?: boolean;
  expiresAt: string;
  deletedAt?: string | null;
  from?: string | null;
  to?: string | null;
  url?: string;
};

/** GET /api/dashboard/devices/{id}/trips: trips and stops measured by the server (times in ms). */
export type Trip = {
  start: number;
  end: number;
  durationMs: number;
  distanceM: number;
  averageSpeedMps: number | null;
  maxSpeedMps: number | null;
};
export type Stop = { start: number; end: number; durationMs: number; lat: number; lon: number };
export type TripsReply = { trips: Trip[]; stops: Stop[]; truncated?: boolean };

/** GET /api/dashboard/devices/{id}/records: one page of a device's records, newest first. */
export type StoredRecord = {
  uuid: string;
  recordedAt: number;
  receivedAt: number;
  latitude?: number;
  longitude?: number;
  accuracy?: number | null;
  speed?: number | null;
  odometer?: number | null;
  event?: string | null;
  isMoving?: boolean | null;
  activity?: string | null;
  battery?: number | null;
  record?: unknown;
};
export type RecordsPage = { records: StoredRecord[]; total: number; next: string | null };

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

/** GET /s/{token}/track: one shared device's track in the link's window (times in ms). */
export type SharedTrack = {
  name?: string | null;
  trips: [number, number, number][][];
  newest?: { lat: number; lon: number; t: number } | null;
  from: number | null;
  to: number | null;
  expiresAt: number;
};

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
