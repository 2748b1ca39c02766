import { CliError } from '../errors.js';

/** One device as the service's admin API reports it. */
export interface ServerDevice {
  id: string;
  records: number;
  duplicates: number;
  lastSeen: string | null;
  status: string;
}

/** The uuids the service stored for a device: `rows` counts rows, `uuids` the distinct ones. */
export interface StoredRecords {
  rows: number;
  uuids: Set<string>;
}

/** A device's state as the service names it (GET /api/health, docs/device-health.md). */
export interface NamedHealth {
  id: string;
  state: string;
  cause: string;
  inferred: boolean;
  since: string | null;
}

/** A silent period the service explained once the device was back (its health history). */
export interface ExplainedSilence {
  silentFrom: string;
  silentTo: string;
  cause: string;
  inferred: boolean;
}

/** One row of a device's health history (every change the service named, newest first). */
export interface HealthHistoryRow {
  at: string;
  state: string;
  cause: string;
  inferred: boolean;
  silentFrom?: string;
  silentTo?: string;
}

/** A device's health as GET /api/devices/:id/health answers it. */
export interface DeviceHealthAnswer extends NamedHealth {
  history: HealthHistoryRow[];
}

/** The slice of the service's admin API the simulator and the demo use. */
export interface AdminApi {
  devices(): Promise<ServerDevice[]>;
  /** Every device's named state, and how long the service lets a device be quiet. */
  health(): Promise<{ silentAfterSeconds: number; devices: NamedHealth[] }>;
  /** The silent periods the service explained for a device, newest first. */
  explainedSilences(deviceId: string): Promise<ExplainedSilence[]>;
  /** Registers a device (the admin may register any id): its tokens. */
  register(deviceId: string): Promise<{ accessToken: string; refreshToken: string; expires: number }>;
  /** Revokes a device's tokens (its next upload is refused). */
  revokeTokens(deviceId: string): Promise<void>;
  /** A device's state, cause and health history; null when the service does not know it. */
  deviceHealth(deviceId: string): Promise<DeviceHealthAnswer | null>;
  /** Blocks a device, as an operator does. */
  block(deviceId: string): Promise<void>;
  /** Deletes a device and its data, as an operator does. */
  remove(deviceId: string): Promise<void>;
  storedRecords(deviceId: string): Promise<StoredRecords>;
  queueCommand(deviceId: string, command: unknown): Promise<void>;
}

/** Every record of a device in one answer: the simulator's runs stay far below this. */
const MAX_RECORDS_PER_DEVICE = 100_000;

/** `baseUrl` is any URL of the service (its ingest URL will do): only its origin is used. */
export function createAdminApi(baseUrl: string, adminToken: string): AdminApi {
  const origin = new URL(baseUrl).origin;
  const request = async (
    path: string,
    init: { method?: string; body?: unknown; missing?: 'null' } = {},
  ): Promise<unknown> => {
    let response: Response;
    try {
      response = await fetch(`${origin}${path}`, {
        method: init.method ?? 'GET',
        headers: {
          authorization: `Bearer ${adminToken}`,
          ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      });
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
      throw new CliError('SERVER', `admin API ${origin}${path} unreachable: ${cause}`);
    }
    const text = await response.text();
    if (response.status === 404 && init.missing === 'null') return null;
    if (!response.ok) {
      throw new CliError(
        'SERVER',
        `admin API ${init.method ?? 'GET'} ${path} answered ${response.status}: ${text.slice(0, 200)}` +
          (response.status === 401 || response.status === 403 ? ' (check --admin-token)' : ''),
      );
    }
    return text ? (JSON.parse(text) as unknown) : null;
  };

  return {
    async devices() {
      const body = await request('/api/devices');
      const list = Array.isArray(body) ? body : ((body as { devices?: unknown[] } | null)?.devices ?? []);
      return list.map((raw) => {
        const device = raw as Record<string, unknown>;
        return {
          id: String(device['id']),
          records: Number(device['records'] ?? 0),
          duplicates: Number(device['duplicates'] ?? 0),
          lastSeen: typeof device['lastSeen'] === 'string' ? device['lastSeen'] : null,
          status: String(device['status'] ?? ''),
        };
      });
    },
    async storedRecords(deviceId) {
      // A device the service never heard from (404 UNKNOWN_DEVICE) has nothing stored.
      const body = await request(
        `/api/devices/${encodeURIComponent(deviceId)}/locations?limit=${MAX_RECORDS_PER_DEVICE}&format=json`,
        { missing: 'null' },
      );
      const list = Array.isArray(body) ? body : ((body as { locations?: unknown[] } | null)?.locations ?? []);
      const uuids = new Set<string>();
      for (const item of list) {
        const uuid = uuidOf(item);
        if (uuid) uuids.add(uuid);
      }
      return { rows: list.length, uuids };
    },
    async health() {
      const body = (await request('/api/health')) as { silentAfterSeconds?: unknown; devices?: NamedHealth[] } | null;
      return {
        silentAfterSeconds: Number(body?.silentAfterSeconds ?? 3600),
        devices: Array.isArray(body?.devices) ? body.devices : [],
      };
    },
    async explainedSilences(deviceId) {
      const body = (await request(`/api/devices/${encodeURIComponent(deviceId)}/health`)) as {
        history?: (Partial<ExplainedSilence> & { silentFrom?: string | null })[];
      } | null;
      return (body?.history ?? []).filter((h): h is ExplainedSilence => typeof h.silentFrom === 'string');
    },
    async register(deviceId) {
      const body = (await request('/auth/register', { method: 'POST', body: { device_id: deviceId } })) as {
        accessToken: string;
        refreshToken: string;
        expires: number;
      };
      return { accessToken: body.accessToken, refreshToken: body.refreshToken, expires: body.expires };
    },
    async deviceHealth(deviceId) {
      const path = `/api/devices/${encodeURIComponent(deviceId)}/health`;
      const body = (await request(path, { missing: 'null' })) as
        (Partial<NamedHealth> & { device?: string; history?: HealthHistoryRow[] }) | null;
      if (body === null) return null;
      return {
        id: deviceId,
        state: String(body.state),
        cause: String(body.cause),
        inferred: body.inferred === true,
        since: body.since ?? null,
        history: Array.isArray(body.history) ? body.history : [],
      };
    },
    async block(deviceId) {
      await request(`/api/devices/${encodeURIComponent(deviceId)}/block`, { method: 'POST' });
    },
    async remove(deviceId) {
      await request(`/api/devices/${encodeURIComponent(deviceId)}`, { method: 'DELETE' });
    },
    async revokeTokens(deviceId) {
      await request(`/api/devices/${encodeURIComponent(deviceId)}/tokens/revoke`, { method: 'POST' });
    },
    async queueCommand(deviceId, command) {
      await request(`/api/devices/${encodeURIComponent(deviceId)}/commands`, { method: 'POST', body: { command } });
    },
  };
}

/** A stored record's uuid, whether the service returns the record itself or a row around it. */
function uuidOf(item: unknown): string | undefined {
  if (!item || typeof item !== 'object') return undefined;
  const row = item as Record<string, unknown>;
  if (typeof row['uuid'] === 'string') return row['uuid'];
  for (const inner of ['record', 'location', 'data']) {
    const nested = row[inner] as Record<string, unknown> | undefined;
    if (nested && typeof nested['uuid'] === 'string') return nested['uuid'];
  }
  return undefined;
}
