// Upgrading a server of the version before issue 41, on both databases: the audit trail's bodies
// kept by the old redaction (a user's `current` password, a password typed as a login name,
// coordinates, URLs) are cleared once, every row staying with who, when, from where and what, and
// the trail append-only again; the geofences kept before stay, each with its org.
import { startServer } from '@waypost/server';
import { describe, expect, it } from 'vitest';
import { GEOFENCES_BY_ORG_VERSION, migrate } from '../src/db/migrations.js';
import { backends } from './helpers/backends.js';
import { dumpDatabase } from './helpers/db-dump.js';
import { openStorage } from './helpers/open-storage.js';
import { rawSql } from './helpers/raw-sql.js';

const OLD_PASSWORD = 'my old password in clear';

describe.each(backends)('upgrading to per-org geofences and an allow-listed trail on $name', (backend) => {
  it('clears the bodies the old trail kept, keeps its rows append-only, and keeps the geofences', async () => {
    const storage = await backend.create();
    try {
      const before = await openStorage(storage.options);
      await migrate(before, GEOFENCES_BY_ORG_VERSION - 1);
      await before.close();
      await rawSql(
        storage.options,
        `INSERT INTO audit_log (at, actor, address, action, target, status, detail) VALUES (1, 'user:vera', '127.0.0.1', 'POST /api/users/me/password', NULL, 204, ?)`,
        [JSON.stringify({ current: OLD_PASSWORD, password: '[redacted]' })],
      );
      await rawSql(storage.options, `INSERT INTO orgs (name, status, created_at) VALUES ('acme', 'active', 1)`);
      const definition = { identifier: 'depot', latitude: 48.1, longitude: 11.5, radius: 100 };
      await rawSql(
        storage.options,
        `INSERT INTO geofences (identifier, definition, created_at, org) VALUES ('depot', ?, 1, 'acme')`,
        [JSON.stringify(definition)],
      );
      const server = await startServer({ port: 0, adminToken: 'admin-secret', ...storage.options });
      try {
        const get = async (path: string) =>
          (await fetch(server.url + path, { headers: { authorization: 'Bearer admin-secret' } })).json();
        const { entries } = (await get('/api/audit')) as { entries: Record<string, unknown>[] };
        expect(entries).toMatchObject([
          { actor: 'user:vera', action: 'POST /api/users/me/password', status: 204, detail: null },
        ]);
        expect(JSON.stringify(await dumpDatabase(storage.options))).not.toContain(OLD_PASSWORD);
        expect(await get('/api/geofences')).toEqual([{ ...definition, org: 'acme' }]);
      } finally {
        await server.close();
      }
      // Append-only again, behind the server's back too.
      await expect(rawSql(storage.options, `UPDATE audit_log SET detail = 'x'`)).rejects.toThrow(/append-only/);
      await expect(rawSql(storage.options, `DELETE FROM audit_log`)).rejects.toThrow(/append-only/);
    } finally {
      await storage.drop();
    }
  });
});
