import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { FromSchema } from 'json-schema-to-ts';
import { devicesInScope } from '../accounts/scope-filter.js';
import { requireAdmin } from '../auth/principal.js';
import { COMMAND_HELP } from '../commands/validate-command.js';
import type { AppContext } from '../context.js';
import { badRequest, HttpError } from '../errors.js';
import { integerParam, timeParam, type QueryInput } from './query-params.js';
import { listCommands } from '../store/commands.js';
import { deviceJson, findDevice, listDevices } from '../store/devices.js';
import {
  countRecords,
  eventRecords,
  recordPage,
  trackPoints,
  type DeviceRange,
  type PageCursor,
  type StoredRow,
} from '../store/track-queries.js';
import { geofencesFromCommands } from '../tracks/known-geofences.js';
import { summarizeRecord } from '../tracks/record-summary.js';
import { MAX_TRACK_POINTS, MAX_ZOOM, MIN_ZOOM, simplifyTrips } from '../tracks/simplify-track.js';
import { splitTrips } from '../tracks/split-trips.js';
import { breaksParam, splitAtBreaks } from '../tracks/split-at-breaks.js';
import { tripTable } from '../tracks/trip-table.js';
import { ACCESS } from '../accounts/route-rules.js';
import {
  COMMANDS_SCHEMA,
  DEVICES_SCHEMA,
  EVENTS_SCHEMA,
  GEOFENCES_SCHEMA,
  RECORDS_SCHEMA,
  STORED_RECORD,
  TRACK_SCHEMA,
  TRIPS_SCHEMA,
} from './schemas/dashboard.js';

/** Positions read for one track answer at most (the newest ones): bounds memory per request. */
export const MAX_TRACK_READ = 1_000_000;
/** Trips drawn at most (the newest): with two points each at least, well under MAX_TRACK_POINTS. */
export const MAX_TRIPS = MAX_TRACK_POINTS / 8;
export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 500;
const MAX_EVENT_MARKERS = 500;

function cursorParam(query: { before?: string }): PageCursor | null {
  const raw = query.before;
  if (raw === undefined || raw === '') return null;
  const match = /^(-?\d{1,16}):(\d{1,16})$/.exec(raw);
  if (!match) throw badRequest('INVALID_PARAMETER', `before must be the "next" cursor of a page, got ${raw}`);
  return { recordedAt: Number(match[1]), id: Number(match[2]) };
}

function parsed(row: StoredRow): unknown {
  try {
    return JSON.parse(row.record);
  } catch {
    return null;
  }
}

/** A stored record for the table: its columns, what it carried, and the record itself. */
function recordJson(row: StoredRow): FromSchema<typeof STORED_RECORD> {
  const record = parsed(row);
  return {
    id: Number(row.id),
    uuid: row.uuid,
    recordedAt: Number(row.recorded_at),
    receivedAt: Number(row.received_at),
    latitude: row.latitude,
    longitude: row.longitude,
    ...summarizeRecord(record),
    record,
  };
}

/**
 * What the dashboard reads beyond the admin API: a device's track simplified for a zoom level and
 * split into trips, its records page by page, its event markers and geofences, the command table.
 * Times go out as epoch milliseconds, so no stored value can make a reply fail.
 */
export const dashboardApiRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (plain, { ctx }) => {
  const app = plain.withTypeProvider<JsonSchemaToTsProvider>();
  const admin = async (request: FastifyRequest) => requireAdmin(ctx, request);
  const rangeOf = async (deviceId: string, query: QueryInput): Promise<DeviceRange> => {
    if (!(await findDevice(ctx.db, deviceId)))
      throw new HttpError(404, 'UNKNOWN_DEVICE', 'No such device on this server');
    return { deviceId, from: timeParam(query, 'from'), to: timeParam(query, 'to') };
  };

  app.get(
    '/api/dashboard/commands',
    { preHandler: admin, config: ACCESS.viewer.global, schema: COMMANDS_SCHEMA },
    async () => COMMAND_HELP,
  );
  // The admin API's device list, under the dashboard's own prefix so the page does not depend on
  // routes other clients may need in other shapes.
  // A user limited to orgs sees only their orgs' devices (issue 33).
  app.get('/api/dashboard/devices', { config: ACCESS.viewer.filtered, schema: DEVICES_SCHEMA }, async (request) => {
    const reader = await requireAdmin(ctx, request);
    return (await devicesInScope(ctx, reader, await listDevices(ctx.db))).map(deviceJson);
  });

  app.get(
    '/api/dashboard/devices/:id/track',
    { preHandler: admin, config: ACCESS.viewer.device, schema: TRACK_SCHEMA },
    async (request) => {
      const range = await rangeOf(request.params.id, request.query);
      const zoom = integerParam(request.query, 'zoom', MIN_ZOOM, MAX_ZOOM, 12);
      const points = await trackPoints(ctx.db, range, MAX_TRACK_READ);
      // The ledger's holes (breaks=from:to,...) cut the trips, so their edges survive simplification.
      const trips = splitAtBreaks(splitTrips(points), breaksParam(request.query.breaks));
      const drawn = simplifyTrips(trips.slice(-MAX_TRIPS), zoom);
      const newest = points[points.length - 1] ?? null;
      return {
        deviceId: range.deviceId,
        zoom,
        positions: points.length,
        truncated: points.length === MAX_TRACK_READ || trips.length > MAX_TRIPS,
        newest,
        trips: drawn.map((trip) => trip.map((p) => [p.lat, p.lon, p.t])),
      };
    },
  );

  // Trips and stops over the range, measured on every position read (not the simplified line).
  app.get(
    '/api/dashboard/devices/:id/trips',
    { preHandler: admin, config: ACCESS.viewer.device, schema: TRIPS_SCHEMA },
    async (request) => {
      const range = await rangeOf(request.params.id, request.query);
      const points = await trackPoints(ctx.db, range, MAX_TRACK_READ);
      return { deviceId: range.deviceId, truncated: points.length === MAX_TRACK_READ, ...tripTable(points) };
    },
  );

  app.get(
    '/api/dashboard/devices/:id/records',
    { preHandler: admin, config: ACCESS.viewer.device, schema: RECORDS_SCHEMA },
    async (request) => {
      const range = await rangeOf(request.params.id, request.query);
      const limit = integerParam(request.query, 'limit', 1, MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE);
      const before = cursorParam(request.query);
      const [rows, total] = await Promise.all([recordPage(ctx.db, range, before, limit), countRecords(ctx.db, range)]);
      const last = rows[rows.length - 1];
      return {
        total,
        records: rows.map(recordJson),
        next: rows.length === limit && last ? `${Number(last.recorded_at)}:${Number(last.id)}` : null,
      };
    },
  );

  app.get(
    '/api/dashboard/devices/:id/events',
    { preHandler: admin, config: ACCESS.viewer.device, schema: EVENTS_SCHEMA },
    async (request) =>
      (await eventRecords(ctx.db, await rangeOf(request.params.id, request.query), MAX_EVENT_MARKERS)).map(recordJson),
  );

  app.get(
    '/api/dashboard/devices/:id/geofences',
    { preHandler: admin, config: ACCESS.viewer.device, schema: GEOFENCES_SCHEMA },
    async (request) => {
      const range = await rangeOf(request.params.id, request.query);
      const rows = await listCommands(ctx.db, range.deviceId);
      const commands = rows.map((row) => {
        try {
          const command = JSON.parse(row.command) as unknown;
          return Array.isArray(command) ? command : [];
        } catch {
          return [];
        }
      });
      return geofencesFromCommands(commands);
    },
  );
};
