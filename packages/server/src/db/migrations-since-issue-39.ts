import type { SqlTypes } from './sql-types.js';

// The migrations of issues 39-46 (accounts, trust, receipts), after the track pyramid's: kept apart
// so that migrations.ts stays one screenful of history. Appended to MIGRATIONS in this order; never
// edit one, add one at the end.

/**
 * Device keys (issue 40): long-lived, revocable credentials for trackers that cannot refresh a
 * token, kept as hashes. A device once given a token or a key is `credentialed`: never written
 * without one again (issue 41 item 5); devices that registered before this are marked from their
 * refresh tokens.
 */
export const deviceKeys = (t: SqlTypes): string[] => [
  `CREATE TABLE device_keys (
    key_hash TEXT PRIMARY KEY, device_id TEXT NOT NULL REFERENCES devices(id),
    created_at ${t.bigint} NOT NULL, revoked_at ${t.bigint})`,
  `CREATE INDEX device_keys_device ON device_keys (device_id)`,
  `ALTER TABLE devices ADD COLUMN credentialed_at ${t.bigint}`,
  `UPDATE devices SET credentialed_at = created_at WHERE id IN (SELECT device_id FROM refresh_tokens)`,
];

// Geofence identifiers unique per organization (issue 41): two orgs may each name one "depot",
// and neither learns the other's names by a refusal. The table is made again with a row id and a
// unique index on (org, identifier), the fleet's (org null) counted as one org.
export const geofencesByOrg = (t: SqlTypes): string[] => [
  `CREATE TABLE geofences_by_org (
    id ${t.id}, identifier TEXT NOT NULL, definition TEXT NOT NULL, created_at ${t.bigint} NOT NULL, org TEXT)`,
  `INSERT INTO geofences_by_org (identifier, definition, created_at, org)
   SELECT identifier, definition, created_at, org FROM geofences ORDER BY created_at, identifier`,
  `DROP TABLE geofences`,
  `ALTER TABLE geofences_by_org RENAME TO geofences`,
  `CREATE UNIQUE INDEX geofences_org_identifier ON geofences ((COALESCE(org, '')), identifier)`,
];

// The audit trail kept bodies by a pattern of secret-looking key names (issue 41): a user's own
// password (`current`), a password typed as a login name, coordinates and URLs were kept in clear.
// It now keeps an allow-list of each route's fields (audit/audit-fields.ts); no body kept before
// can be shown to hold no password, so this one migration clears them all (who, when, from where,
// what and on what stay), lifting the table's append-only triggers for that statement alone.
export const auditDetailsCleared = (t: SqlTypes): string[] => [
  ...t.dropAppendOnly('audit_log'),
  `UPDATE audit_log SET detail = NULL WHERE detail IS NOT NULL`,
  ...t.appendOnly('audit_log'),
];

// User names compared in one form (issue 45): `admin` and `Admin` are one name. The column is
// filled at start for users made before (accounts/user-name-key.ts: NFKC and case folding are not
// SQL); a name clashing with an older one's stays without, and cannot log in.
export const userNameKeys = (): string[] => [
  `ALTER TABLE users ADD COLUMN name_key TEXT`,
  `CREATE UNIQUE INDEX users_name_key ON users (name_key)`,
];

/**
 * PostgreSQL checked locations.device_id by its foreign key once per ROW (an SPI lookup and a row
 * lock on the device each time): a fifth of the backends' CPU per record stored (issue 43). The
 * same rule, checked once per statement: every device an insert or update names exists, its row
 * locked FOR KEY SHARE as the key's check locked it (ingest holds it FOR UPDATE already); a device
 * with positions is neither deleted nor renamed. The error keeps the key's code (23503).
 */
const locationsDeviceCheck = [
  `CREATE FUNCTION locations_device_check() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF EXISTS (SELECT 1 FROM (SELECT DISTINCT device_id FROM changed) c LEFT JOIN LATERAL
         (SELECT 1 AS hit FROM devices d WHERE d.id = c.device_id FOR KEY SHARE) k ON true WHERE k.hit IS NULL) THEN
       RAISE EXCEPTION 'locations.device_id names no device' USING ERRCODE = '23503';
     END IF;
     RETURN NULL;
   END $$`,
  ...['INSERT', 'UPDATE'].map(
    (op) => `CREATE TRIGGER locations_device_${op.toLowerCase()} AFTER ${op} ON locations
     REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION locations_device_check()`,
  ),
  `CREATE FUNCTION devices_keep_located() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF TG_OP = 'UPDATE' AND NEW.id = OLD.id THEN RETURN NEW; END IF;
     IF EXISTS (SELECT 1 FROM locations WHERE device_id = OLD.id) THEN
       RAISE EXCEPTION 'device % has positions', OLD.id USING ERRCODE = '23503';
     END IF;
     RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
   END $$`,
  `CREATE TRIGGER devices_keep_located BEFORE DELETE OR UPDATE OF id ON devices
   FOR EACH ROW EXECUTE FUNCTION devices_keep_located()`,
  `ALTER TABLE locations DROP CONSTRAINT locations_device_id_fkey`,
];

export const SINCE_ISSUE_39: ((t: SqlTypes) => string[])[] = [
  // Sinks an operator makes are confined to outside addresses (issue 45). Sinks made before keep
  // reaching where they did (their maker is not recorded); what any sink's failures tell an
  // operator or viewer is narrowed in the API for every sink alike.
  () => [`ALTER TABLE sinks ADD COLUMN confined INTEGER NOT NULL DEFAULT 0`],
  // Every refusal named (issue 39): a device refused before its upload's handler (size, depth,
  // content type, rate limit) is kept as the server saw it, in the auth_refused_* columns, with the
  // refusal's cause (NULL: its credentials, as before).
  () => [`ALTER TABLE devices ADD COLUMN refused_cause TEXT`],
  deviceKeys,
  // Sequence epochs (issue 39): the numbering a sequence number belongs to (an id the SDK makes
  // when its queue database starts numbering; null for trackers that send none), on each place
  // the ledger reads numbers from, so a device whose numbering restarted keeps one account each.
  () => [
    `ALTER TABLE locations ADD COLUMN sequence_epoch TEXT`,
    `ALTER TABLE quarantine ADD COLUMN sequence_epoch TEXT`,
    `ALTER TABLE dropped_ranges ADD COLUMN sequence_epoch TEXT`,
    `ALTER TABLE expired_ranges ADD COLUMN sequence_epoch TEXT`,
    // The ledger reads a device's numbers per numbering: the index leads with the epoch.
    `DROP INDEX locations_device_sequence`,
    `CREATE INDEX locations_device_epoch_sequence ON locations (device_id, sequence_epoch, sequence)
      WHERE sequence IS NOT NULL`,
  ],
  // Issue 41: what a transaction deciding fleet events runs in its COMMIT's round trip on
  // PostgreSQL (fleet/config-version.ts: the configuration's lock, per schema, taken shared, and its
  // version still the one read), a function so that each connection compiles it once.
  (t) =>
    t.dialect === 'postgres'
      ? [
          `CREATE FUNCTION fleet_config_still(expected BIGINT) RETURNS void LANGUAGE plpgsql AS $$
           BEGIN
             PERFORM pg_advisory_xact_lock_shared(7410421, hashtext(current_schema()));
             IF (SELECT version FROM fleet_config WHERE id = 1) <> expected THEN
               RAISE EXCEPTION 'the fleet configuration changed during this transaction' USING ERRCODE = '40001';
             END IF;
           END $$`,
        ]
      : [],
  userNameKeys,
  geofencesByOrg,
  auditDetailsCleared,
  // Delivery receipts (issue 46): numbers a device proved (by a receipt) this server had
  // acknowledged and no longer held: asked for again ('asked'), or no longer held by the device
  // either ('lost': lost after acknowledgement).
  (t) => [
    `CREATE TABLE acknowledged_gaps (
      id ${t.id}, device_id TEXT NOT NULL, sequence_epoch TEXT,
      first_sequence ${t.bigint} NOT NULL, last_sequence ${t.bigint} NOT NULL,
      state TEXT NOT NULL, noted_at ${t.bigint} NOT NULL
    )`,
    `CREATE INDEX acknowledged_gaps_device ON acknowledged_gaps (device_id, sequence_epoch)`,
  ],
  (t) => (t.dialect === 'postgres' ? locationsDeviceCheck : []),
];
