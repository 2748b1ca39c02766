/**
 * Whose data each table of the schema holds (issue 41), so that deleting a device or an
 * organization removes every row that belongs to it, by the schema and not by a list someone
 * keeps up to date: test/deletion-by-schema.test.ts lists every table of both databases and fails
 * for one declared nowhere here, then checks that a deleted device or org leaves nothing of itself.
 * - `device`: rows of one device, by the column naming it (deleted in bounded batches by `key`);
 * - `org`: an organization's own settings, by the column naming it (deleted with the org);
 * - `tombstone`: the deleted device's or org's own row stays, so its next request is refused
 *   (410) instead of starting afresh; `kept` columns stay, every other column is set to `cleared`;
 * - `none`: the table holds no device's or org's data (the reason says why).
 */
export type TableOwner =
  | { device: string; key: string }
  | { org: string }
  | { tombstone: 'device' | 'org'; kept: readonly string[]; cleared: Readonly<Record<string, string | number | null>> }
  | { none: string };

export const DATA_OWNERS: Readonly<Record<string, TableOwner>> = {
  locations: { device: 'device_id', key: 'id' },
  quarantine: { device: 'device_id', key: 'id' },
  logs: { device: 'device_id', key: 'id' },
  fleet_events: { device: 'device_id', key: 'seq' },
  outbox: { device: 'device_id', key: 'seq' },
  dropped_ranges: { device: 'device_id', key: 'id' },
  expired_ranges: { device: 'device_id', key: 'id' },
  commands: { device: 'device_id', key: 'id' },
  shares: { device: 'device_id', key: 'id' },
  refresh_tokens: { device: 'device_id', key: 'token_hash' },
  device_keys: { device: 'device_id', key: 'key_hash' },
  acknowledged_gaps: { device: 'device_id', key: 'id' },
  device_health: { device: 'device_id', key: 'seq' },
  // After locations (whose deletes mark the pyramid stale), the pyramid's rows go too.
  track_tiles: { device: 'device_id', key: 'id' },
  track_tile_dirty: { device: 'device_id', key: 'id' },
  device_group_members: { device: 'device_id', key: 'id' },
  geofences: { org: 'org' },
  sinks: { org: 'org' },
  devices: {
    tombstone: 'device',
    // What refuses the device's next request: its id, org and uuid (a re-registration), status.
    kept: ['id', 'org_id', 'uuid', 'status', 'created_at', 'tokens_revoked_at'],
    cleared: {
      model: null,
      info: '{}',
      name: null,
      last_seen: null,
      records: 0,
      duplicates: 0,
      quarantined: 0,
      last_latitude: null,
      last_longitude: null,
      last_recorded_at: null,
      event_cursor: null,
      event_state: null,
      event_silent_since: null,
      health_report: null,
      health_at: null,
      health_state: null,
      auth_refused_at: null,
      auth_refused_since: null,
      auth_refused_code: null,
      auth_refused_report: null,
      refused_cause: null,
      // A deleted device is refused (410) whatever it sends: no credential of it is kept.
      credentialed_at: null,
    },
  },
  orgs: {
    tombstone: 'org',
    // The name stays refused (410 ORG_DELETED): a registration through it starts nothing afresh.
    kept: ['id', 'name', 'status', 'created_at'],
    cleared: { retention_days: null },
  },
  audit_log: { none: 'append-only; holds no data of a device or org by its allow-list (docs/audit.md)' },
  users: { none: "accounts; a user's `orgs` names the orgs they are limited to, as the org's tombstone does" },
  sessions: { none: "users' dashboard sessions" },
  oidc_logins: { none: 'single sign-on logins under way' },
  device_groups: { none: "the fleet's group names; their members are device_group_members" },
  settings: { none: "the server's own keys" },
  fleet_config: { none: 'the version of the geofences and sinks' },
  schema_migrations: { none: 'the schema version' },
};

const entries = Object.entries(DATA_OWNERS);

/** The tables holding one device's rows, in the order they are deleted. */
export const DEVICE_TABLES = entries.flatMap(([table, owner]) =>
  'device' in owner ? [{ table, column: owner.device, key: owner.key }] : [],
);
/** The tables holding an organization's own settings. */
export const ORG_TABLES = entries.flatMap(([table, owner]) => ('org' in owner ? [{ table, column: owner.org }] : []));

/** The statement that clears a tombstone row of everything but its kept columns. */
export function clearTombstone(table: 'devices' | 'orgs'): { sql: string; params: (string | number | null)[] } {
  const owner = DATA_OWNERS[table]!;
  if (!('tombstone' in owner)) throw new Error(`${table} is no tombstone`);
  const cleared = Object.entries(owner.cleared);
  return {
    sql: `UPDATE ${table} SET ${cleared.map(([column]) => `${column} = ?`).join(', ')} WHERE id = ?`,
    params: cleared.map(([, value]) => value),
  };
}
