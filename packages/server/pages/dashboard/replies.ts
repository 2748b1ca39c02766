// The replies the pages read, named once (issue 42): each is its route's own reply type (api-types.ts,
// generated from the routes' schemas at build time), never a hand-written copy, so a route whose
// schema changes fails the pages' type check where they read it.
import type { Reply } from './api-types.js';

/** GET /api/logs: the logs devices uploaded. */
export type UploadedLog = Reply<'/api/logs'>[number];

/** GET /dashboard-config.json (the page's own settings, not under /api). */
export type DashboardConfig = Reply<'/dashboard-config.json'>;

/** GET /api/health: the state the server names for a device (GET /api/devices/{id}/health says it too, without the id). */
export type Health = Omit<Reply<'/api/health'>['devices'][number], 'id'> & { id?: string };

/** GET /api/devices/{id}/health: a device's state with what it said and what the server saw. */
export type HealthDetail = Reply<'/api/devices/{id}/health'>;

/** GET /api/devices/{id}/ledger: the delivery ledger, its numberings and silent periods. */
export type Ledger = Reply<'/api/devices/{id}/ledger'>;
/** One numbering's account of the ledger (the whole ledger's, or one epoch's). */
export type LedgerAccount = Pick<Ledger, 'missing' | 'highestSequence' | 'missingRanges'>;
/** A silent period of the ledger's timeline. */
export type SilentPeriod = NonNullable<Ledger['silentPeriods']>[number];

/** GET /api/geofences: the server's geofences. */
export type ServerGeofence = Reply<'/api/geofences'>[number];

/** GET /api/session: who is logged in. */
export type Session = Reply<'/api/session'>;

/** GET /api/groups: the device groups. */
export type DeviceGroup = Reply<'/api/groups'>[number];

/** GET /api/users: the users and what each may see. */
export type UserAccount = Reply<'/api/users'>[number];
/** A user's limits: null for all devices. */
export type Limits = Pick<UserAccount, 'orgs' | 'groups'>;

/** GET /api/devices/{id}/quarantine: records the server refused to store. */
export type QuarantinedRecord = Reply<'/api/devices/{id}/quarantine'>['records'][number];

/** GET /api/orgs: the organizations. */
export type Org = Reply<'/api/orgs'>[number];

/** GET /api/sinks: an event sink with its backlog; POST /api/sinks answers one with its secret. */
export type Sink = Reply<'/api/sinks'>[number];

/** GET /api/sinks/{id}/dead-letters: events a sink could not deliver. */
export type DeadLetter = Reply<'/api/sinks/{id}/dead-letters'>[number];
