import type { Database, Queryable } from './database.js';
import { sqliteMarksInTransactions, trackTileSchema } from '../track-tiles/schema.js';
import { SQL_TYPES, type SqlTypes } from './sql-types.js';
import { deviceKeys, geofencesByOrg, SINCE_ISSUE_39, userNameKeys } from './migrations-since-issue-39.js';

// Quarantine is idempotent per device and record identity (issue 29): a resent invalid record
// (an SDK retry, the same batch sent three times) is kept once, so the device's counter, its
// ledger and the metric count it once. Rows kept before get their uuid as identity (or their
// own id when they had none), repeats are removed (the first kept), and the counters recounted.
const quarantineIdentity = (): string[] => [
  `ALTER TABLE quarantine ADD COLUMN identity TEXT`,
  `UPDATE quarantine SET identity = COALESCE(uuid, 'row:' || CAST(id AS TEXT))`,
  `DELETE FROM quarantine WHERE id NOT IN (SELECT MIN(id) FROM quarantine GROUP BY device_id, identity)`,
  `CREATE UNIQUE INDEX quarantine_device_identity ON quarantine (device_id, identity)`,
  `UPDATE devices SET quarantined = (SELECT COUNT(*) FROM quarantine q WHERE q.device_id = devices.id)`,
];

/** Each migration is a list of statements; its index + 1 is its version. Never edit one: add one. */
const MIGRATIONS: ((t: SqlTypes) => string[])[] = [
  (t) => [
    `CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)`,
    `CREATE TABLE devices (
      id TEXT PRIMARY KEY, model TEXT, info TEXT NOT NULL DEFAULT '{}',
      created_at ${t.bigint} NOT NULL, last_seen ${t.bigint},
      status TEXT NOT NULL DEFAULT 'active',
      records ${t.bigint} NOT NULL DEFAULT 0, duplicates ${t.bigint} NOT NULL DEFAULT 0,
      last_latitude ${t.real}, last_longitude ${t.real}, last_recorded_at ${t.bigint})`,
    `CREATE TABLE locations (
      id ${t.id}, device_id TEXT NOT NULL REFERENCES devices(id), uuid TEXT NOT NULL,
      recorded_at ${t.bigint} NOT NULL, latitude ${t.real}, longitude ${t.real},
      received_at ${t.bigint} NOT NULL, record TEXT NOT NULL,
      CONSTRAINT locations_device_uuid UNIQUE (device_id, uuid))`,
    `CREATE INDEX locations_device_time ON locations (device_id, recorded_at)`,
    `CREATE TABLE refresh_tokens (
      token_hash TEXT PRIMARY KEY, device_id TEXT NOT NULL REFERENCES devices(id),
      created_at ${t.bigint} NOT NULL, expires_at ${t.bigint} NOT NULL,
      used_at ${t.bigint}, revoked_at ${t.bigint})`,
    `CREATE TABLE commands (
      id ${t.id}, device_id TEXT NOT NULL REFERENCES devices(id), command TEXT NOT NULL,
      status TEXT NOT NULL DEFAULT 'pending', created_at ${t.bigint} NOT NULL, delivered_at ${t.bigint})`,
    `CREATE INDEX commands_pending ON commands (device_id, status)`,
    `CREATE TABLE logs (
      id ${t.id}, device_id TEXT, fields TEXT NOT NULL, content ${t.blob} NOT NULL,
      size ${t.bigint} NOT NULL, created_at ${t.bigint} NOT NULL)`,
  ],
  // Refresh-token families (reuse detection revokes a whole family) and dashboard sessions.
  (t) => [
    `ALTER TABLE refresh_tokens ADD COLUMN family TEXT`,
    `CREATE INDEX refresh_tokens_family ON refresh_tokens (family)`,
    `CREATE TABLE sessions (
      id_hash TEXT PRIMARY KEY, created_at ${t.bigint} NOT NULL, expires_at ${t.bigint} NOT NULL)`,
  ],
  // The dashboard: a device's track is read from the index alone (positions in time order, no
  // visit to the wide record rows), and the record's event (motionchange, geofence, heartbeat) is a
  // column, so event markers read a few rows through a small partial index instead of every record.
  () => [
    `DROP INDEX locations_device_time`,
    `CREATE INDEX locations_device_track ON locations (device_id, recorded_at, id, latitude, longitude)`,
    `ALTER TABLE locations ADD COLUMN event TEXT`,
    `CREATE INDEX locations_device_event ON locations (device_id, event, recorded_at) WHERE event IS NOT NULL`,
  ],
  // Organizations (the anchor's company tokens), a level above devices.
  (t) => [
    `CREATE TABLE orgs (
      id ${t.id}, name TEXT NOT NULL, status TEXT NOT NULL DEFAULT 'active',
      created_at ${t.bigint} NOT NULL, CONSTRAINT orgs_name UNIQUE (name))`,
    `ALTER TABLE devices ADD COLUMN org_id ${t.bigint} REFERENCES orgs(id)`,
    `ALTER TABLE devices ADD COLUMN uuid TEXT`,
    `CREATE INDEX devices_org_uuid ON devices (org_id, uuid)`,
  ],
  // Per-record verdicts (issue 19): a record the server cannot take is quarantined with its raw
  // JSON and reason instead of failing its request; a record whose time is implausible (a device
  // clock in 1970 or a week ahead) is stored and flagged, its receive time beside it as always.
  (t) => [
    `CREATE TABLE quarantine (
      id ${t.id}, device_id TEXT NOT NULL, uuid TEXT, code TEXT NOT NULL, message TEXT NOT NULL,
      raw TEXT NOT NULL, received_at ${t.bigint} NOT NULL)`,
    `CREATE INDEX quarantine_device ON quarantine (device_id, id)`,
    `ALTER TABLE locations ADD COLUMN clock_suspect INTEGER`,
    `ALTER TABLE devices ADD COLUMN quarantined ${t.bigint} NOT NULL DEFAULT 0`,
  ],
  // The delivery ledger (issue 19): each record's per-device sequence number (when the device
  // sends one), and the sequence ranges a device reported dropped on purpose (ttl, cap, destroyed).
  (t) => [
    `ALTER TABLE locations ADD COLUMN sequence ${t.bigint}`,
    `CREATE INDEX locations_device_sequence ON locations (device_id, sequence) WHERE sequence IS NOT NULL`,
    `ALTER TABLE quarantine ADD COLUMN sequence ${t.bigint}`,
    `CREATE TABLE dropped_ranges (
      id ${t.id}, device_id TEXT NOT NULL, reason TEXT NOT NULL,
      first_sequence ${t.bigint} NOT NULL, last_sequence ${t.bigint} NOT NULL, received_at ${t.bigint} NOT NULL)`,
    `CREATE INDEX dropped_ranges_device ON dropped_ranges (device_id, first_sequence)`,
  ],
  // Fleet events (issue 21): server-side geofences, the sinks events go to, the transactional
  // outbox (one row per event and sink, written in the ingest transaction, deleted once delivered)
  // and each device's evaluation state (geofence presence, trip, silence) beside its records.
  (t) => [
    `CREATE TABLE geofences (identifier TEXT PRIMARY KEY, definition TEXT NOT NULL, created_at ${t.bigint} NOT NULL)`,
    `CREATE TABLE sinks (
      id TEXT PRIMARY KEY, kind TEXT NOT NULL, url TEXT NOT NULL, secret TEXT, events TEXT,
      origin TEXT NOT NULL, created_at ${t.bigint} NOT NULL, leader TEXT, lease_until ${t.bigint})`,
    `CREATE TABLE outbox (
      seq ${t.id}, sink_id TEXT NOT NULL, event_id TEXT NOT NULL, device_id TEXT NOT NULL, type TEXT NOT NULL,
      body TEXT NOT NULL, created_at ${t.bigint} NOT NULL, attempts INTEGER NOT NULL DEFAULT 0,
      next_at ${t.bigint} NOT NULL, status TEXT NOT NULL DEFAULT 'pending', last_error TEXT)`,
    `CREATE INDEX outbox_sink_status ON outbox (sink_id, status, seq)`,
    `CREATE INDEX outbox_sink_retry ON outbox (sink_id, next_at)`,
    `CREATE TABLE device_event_state (
      device_id TEXT PRIMARY KEY, cursor ${t.bigint}, state TEXT NOT NULL, silent_since ${t.bigint})`,
  ],
  // The dashboard (issue 22): the name a device was given (the phone tracker's typed name), and
  // share links, whose capability token is stored only as its SHA-256.
  (t) => [
    `ALTER TABLE devices ADD COLUMN name TEXT`,
    `CREATE TABLE shares (
      id TEXT PRIMARY KEY, token_hash TEXT NOT NULL, device_id TEXT NOT NULL,
      from_ms ${t.bigint}, to_ms ${t.bigint}, expires_at ${t.bigint} NOT NULL,
      created_at ${t.bigint} NOT NULL, deleted_at ${t.bigint}, CONSTRAINT shares_token UNIQUE (token_hash))`,
  ],
  // Fleet event history (issues 21, 22): every event but `location`, kept per device whether or not
  // a sink is configured (the dashboard's timeline reads it; the outbox forgets what it delivered).
  // One row per event, written in the ingest transaction; the unique id makes a repeat a no-op.
  // And each device's evaluation state moves onto its devices row: the ingest transaction locks
  // that row anyway, so the state is read with the lock (and, on PostgreSQL, as the lock holder
  // left it: a joined table's row would be read as of the statement's start) and written with the
  // device's counters.
  (t) => [
    `CREATE TABLE fleet_events (
      seq ${t.id}, event_id TEXT NOT NULL, device_id TEXT NOT NULL, type TEXT NOT NULL,
      at ${t.bigint} NOT NULL, body TEXT NOT NULL, CONSTRAINT fleet_events_id UNIQUE (event_id))`,
    `CREATE INDEX fleet_events_device_time ON fleet_events (device_id, at, seq)`,
    `ALTER TABLE devices ADD COLUMN event_cursor ${t.bigint}`,
    `ALTER TABLE devices ADD COLUMN event_state TEXT`,
    `ALTER TABLE devices ADD COLUMN event_silent_since ${t.bigint}`,
    `UPDATE devices SET
      event_cursor = (SELECT s.cursor FROM device_event_state s WHERE s.device_id = devices.id),
      event_state = (SELECT s.state FROM device_event_state s WHERE s.device_id = devices.id),
      event_silent_since = (SELECT s.silent_since FROM device_event_state s WHERE s.device_id = devices.id)
      WHERE id IN (SELECT device_id FROM device_event_state)`,
    `DROP TABLE device_event_state`,
  ],
  quarantineIdentity,
  // One fleet across processes (issue 30): the version of the geofences and sinks, bumped in every
  // transaction that changes them and read by every ingest transaction (one row by its key), so a
  // process whose copy is older reads them again before it decides anything.
  (t) => [
    `CREATE TABLE fleet_config (id INTEGER PRIMARY KEY, version ${t.bigint} NOT NULL)`,
    `INSERT INTO fleet_config (id, version) VALUES (1, 1)`,
  ],
  // Device health (issue 31): the newest health report a device sent (Waypost-Health) and when,
  // the state the server last named for it, and the history of the states it named (a row per
  // change), so a silence is explained after the fact as well as while it lasts.
  (t) => [
    `ALTER TABLE devices ADD COLUMN health_report TEXT`,
    `ALTER TABLE devices ADD COLUMN health_at ${t.bigint}`,
    `ALTER TABLE devices ADD COLUMN health_state TEXT`,
    `CREATE TABLE device_health (
      seq ${t.id}, device_id TEXT NOT NULL, at ${t.bigint} NOT NULL, state TEXT NOT NULL, cause TEXT NOT NULL,
      inferred INTEGER NOT NULL, since ${t.bigint}, report TEXT)`,
    `CREATE INDEX device_health_device_time ON device_health (device_id, at, seq)`,
  ],
  // Retention (issue 33): an organization's own retention period (days; null: the server's), and
  // the sequence ranges retention removed, so the delivery ledger names them "expired", not missing.
  // Retention deletes through the (device_id, recorded_at) index: no index is added to ingest's path.
  (t) => [
    `ALTER TABLE orgs ADD COLUMN retention_days ${t.real}`,
    `CREATE TABLE expired_ranges (
      id ${t.id}, device_id TEXT NOT NULL,
      first_sequence ${t.bigint} NOT NULL, last_sequence ${t.bigint} NOT NULL, expired_at ${t.bigint} NOT NULL)`,
    `CREATE INDEX expired_ranges_device ON expired_ranges (device_id, first_sequence)`,
    `CREATE INDEX quarantine_device_time ON quarantine (device_id, received_at)`,
    `CREATE INDEX logs_device_time ON logs (device_id, created_at)`,
  ],
  // The audit trail (issue 33): every operator's change, with who, when, from where and what,
  // append-only in the database itself (a trigger refuses UPDATE and DELETE), so neither a bug nor
  // a retention pass nor a device's deletion can rewrite it.
  (t) => [
    `CREATE TABLE audit_log (
      seq ${t.id}, at ${t.bigint} NOT NULL, actor TEXT NOT NULL, address TEXT NOT NULL, action TEXT NOT NULL,
      target TEXT, status INTEGER NOT NULL, detail TEXT)`,
    ...t.appendOnly('audit_log'),
  ],
  // Accounts (issue 33): users with a scrypt password hash (parameters stored with it), a role and
  // the orgs they are limited to (a JSON list, null: all), and the user each dashboard session is
  // for (null: a session opened with the admin token), so a user's sessions can be ended together.
  (t) => [
    `CREATE TABLE users (
      name TEXT PRIMARY KEY, password_hash TEXT NOT NULL, role TEXT NOT NULL, orgs TEXT,
      created_at ${t.bigint} NOT NULL, updated_at ${t.bigint} NOT NULL)`,
    `ALTER TABLE sessions ADD COLUMN user_name TEXT`,
    `CREATE INDEX sessions_user ON sessions (user_name)`,
  ],
  // Webhooks once as far as a receiver can tell (issue 30): when an attempt on an outbox row began,
  // written before the request under the sender's lease and cleared when its outcome is recorded,
  // so the process that takes a sink over knows which event's first attempt has no recorded
  // outcome (it sends it again, and says so) and every other event was never sent.
  (t) => [`ALTER TABLE outbox ADD COLUMN sending_at ${t.bigint}`],
  // Device health (issue 31): a revocation refuses the access tokens issued before it at once
  // (tokens_revoked_at); a request whose device token was refused is kept as the server saw it
  // (auth_refused_*: when, since when, why, and the report it carried, never trusted for more);
  // a silent period explained once the device is back (device_health.silent_from/silent_to).
  (t) => [
    `ALTER TABLE devices ADD COLUMN tokens_revoked_at ${t.bigint}`,
    `ALTER TABLE devices ADD COLUMN auth_refused_at ${t.bigint}`,
    `ALTER TABLE devices ADD COLUMN auth_refused_since ${t.bigint}`,
    `ALTER TABLE devices ADD COLUMN auth_refused_code TEXT`,
    `ALTER TABLE devices ADD COLUMN auth_refused_report TEXT`,
    `ALTER TABLE device_health ADD COLUMN silent_from ${t.bigint}`,
    `ALTER TABLE device_health ADD COLUMN silent_to ${t.bigint}`,
    `ALTER TABLE device_health ADD COLUMN said TEXT`,
  ],
  // Sinks paused from the dashboard (issue 32): a paused sink keeps its backlog (events still
  // queue for it) and gets nothing until resumed.
  () => [`ALTER TABLE sinks ADD COLUMN paused INTEGER NOT NULL DEFAULT 0`],
  // The track pyramid (issue 32): a device's track as tiles per time bucket, and the buckets whose
  // tiles are stale (marked by triggers on every insert and delete of a position), track-tiles/.
  trackTileSchema,
  // Device groups, single sign-on and scoped fleet settings (issue 33): groups an owner puts
  // devices in (a user may be limited to groups as well as to orgs: device_groups, a JSON list);
  // the org a geofence or a sink belongs to (null: the whole fleet's, made by an unlimited user);
  // and the OpenID Connect logins under way (state, nonce and PKCE verifier, kept on the server
  // under the hash of the browser's one-use login cookie, so a callback is bound to its browser).
  (t) => [
    `CREATE TABLE device_groups (name TEXT PRIMARY KEY, created_at ${t.bigint} NOT NULL)`,
    `CREATE TABLE device_group_members (
      id ${t.id}, group_name TEXT NOT NULL, device_id TEXT NOT NULL,
      CONSTRAINT device_group_members_unique UNIQUE (group_name, device_id))`,
    `CREATE INDEX device_group_members_device ON device_group_members (device_id)`,
    `ALTER TABLE users ADD COLUMN device_groups TEXT`,
    `ALTER TABLE geofences ADD COLUMN org TEXT`,
    `ALTER TABLE sinks ADD COLUMN org TEXT`,
    `CREATE TABLE oidc_logins (
      id_hash TEXT PRIMARY KEY, state TEXT NOT NULL, nonce TEXT NOT NULL, verifier TEXT NOT NULL,
      expires_at ${t.bigint} NOT NULL)`,
  ],
  // SQLite's track pyramid is marked by the statements that change positions rather than by a
  // trigger per row (issue 32: batched ingest and retention's deletes lost a sizeable share to it).
  sqliteMarksInTransactions,
  ...SINCE_ISSUE_39,
];

export const SCHEMA_VERSION = MIGRATIONS.length;
/** The version of quarantine's identity migration: its upgrade test migrates to the one before. */
export const QUARANTINE_IDENTITY_VERSION = MIGRATIONS.indexOf(quarantineIdentity) + 1;
/** The version of the user-name key's migration: its upgrade test migrates to the one before. */
export const USER_NAME_KEY_VERSION = MIGRATIONS.indexOf(userNameKeys) + 1;
/** The version of the device keys migration: its upgrade test migrates to the one before. */
export const DEVICE_KEYS_VERSION = MIGRATIONS.indexOf(deviceKeys) + 1;
/** The version of the per-org geofence identifiers: its upgrade test migrates to the one before. */
export const GEOFENCES_BY_ORG_VERSION = MIGRATIONS.indexOf(geofencesByOrg) + 1;

async function currentVersion(tx: Queryable): Promise<number> {
  await tx.run(
    `CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)`,
  );
  const rows = await tx.query<{ version: number | null }>(`SELECT MAX(version) AS version FROM schema_migrations`);
  return Number(rows[0]?.version ?? 0);
}

/**
 * Brings the schema up to date in one transaction. On PostgreSQL an advisory lock makes
 * processes starting together migrate one after the other.
 */
export async function migrate(db: Database, upTo: number = MIGRATIONS.length): Promise<void> {
  await db.transaction(async (tx) => {
    if (db.dialect === 'postgres') await tx.query(`SELECT pg_advisory_xact_lock(7410420)`);
    const from = await currentVersion(tx);
    for (let version = from + 1; version <= upTo; version++) {
      for (const statement of MIGRATIONS[version - 1]!(SQL_TYPES[db.dialect])) await tx.run(statement);
      await tx.run(`INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)`, [version, Date.now()]);
    }
  });
}
