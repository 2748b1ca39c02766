import type { Queryable, SqlValue } from '../db/database.js';
import type { FleetEvent } from './fleet-event.js';
import type { Sink } from './sinks-store.js';

/** An event with its JSON, made once for the history and every sink's outbox row. */
export interface EventRow {
  event: FleetEvent;
  body: string;
  /** Device time, epoch ms. */
  at: number;
  /** The device's org (null: none), when the producer knew it; writeEvents looks it up otherwise. */
  org?: string | null;
}

export const eventRowOf = (event: FleetEvent, at: number, org?: string | null): EventRow =>
  org === undefined ? { event, body: JSON.stringify(event), at } : { event, body: JSON.stringify(event), at, org };

/** The history keeps every event but `location` (that one is the record itself, stored already). */
export const kept = (row: EventRow): boolean => row.event.type !== 'location';

/**
 * Outbox rows: each event once per sink that wants its type, in event order. An org's sink
 * (issue 33) gets only the events of that org's devices: an event whose device's org is unknown
 * goes to no org's sink.
 */
export function fanOut(rows: readonly EventRow[], sinks: readonly Sink[]): { sinkId: string; row: EventRow }[] {
  const out: { sinkId: string; row: EventRow }[] = [];
  if (sinks.length === 0) return out;
  for (const row of rows)
    for (const sink of sinks)
      if (sink.events.includes(row.event.type) && (sink.org === null || sink.org === row.org))
        out.push({ sinkId: sink.id, row });
  return out;
}

/** The rows with their device's org, read for those that came without it, when an org's sink may want them. */
async function withOrgs(
  db: Queryable,
  rows: readonly EventRow[],
  sinks: readonly Sink[],
): Promise<readonly EventRow[]> {
  if (!sinks.some((sink) => sink.org !== null)) return rows;
  const unknown = [...new Set(rows.filter((row) => row.org === undefined).map((row) => row.event.device))];
  if (unknown.length === 0) return rows;
  const orgs = new Map<string, string>();
  for (let start = 0; start < unknown.length; start += PER_STATEMENT) {
    const chunk = unknown.slice(start, start + PER_STATEMENT);
    const found = await db.query<{ id: string; name: string }>(
      `SELECT d.id, o.name FROM devices d JOIN orgs o ON o.id = d.org_id WHERE d.id IN (${chunk.map(() => '?').join(', ')})`,
      chunk,
    );
    for (const { id, name } of found) orgs.set(id, name);
  }
  return rows.map((row) => (row.org === undefined ? { ...row, org: orgs.get(row.event.device) ?? null } : row));
}

const HISTORY_SQL = `INSERT INTO fleet_events (event_id, device_id, type, at, body) VALUES `;
const HISTORY_ROW = '(?, ?, ?, ?, ?)';
const HISTORY_CONFLICT = ' ON CONFLICT (event_id) DO NOTHING';
const OUTBOX_SQL = `INSERT INTO outbox (sink_id, event_id, device_id, type, body, created_at, next_at) VALUES `;
const OUTBOX_ROW = '(?, ?, ?, ?, ?, ?, ?)';
const PER_STATEMENT = 250;

const historyParams = ({ event, body, at }: EventRow): SqlValue[] => [event.id, event.device, event.type, at, body];

async function insertRows<T>(
  db: Queryable,
  items: readonly T[],
  sql: { head: string; row: string; tail: string },
  params: (item: T) => SqlValue[],
): Promise<void> {
  if (items.length === 0) return;
  if (db.runEach) {
    await db.runEach(sql.head + sql.row + sql.tail, items.length, (i) => params(items[i]!));
    return;
  }
  for (let start = 0; start < items.length; start += PER_STATEMENT) {
    const chunk = items.slice(start, start + PER_STATEMENT);
    await db.run(sql.head + chunk.map(() => sql.row).join(', ') + sql.tail, chunk.flatMap(params));
  }
}

/**
 * Writes events to the history (all but `location`; a repeated id is a no-op) and to the outbox of
 * every sink that wants them, in the caller's transaction. Returns the outbox rows written.
 */
export async function writeEvents(
  db: Queryable,
  rows: readonly EventRow[],
  sinks: readonly Sink[],
  now: number,
): Promise<number> {
  await insertRows(
    db,
    rows.filter(kept),
    { head: HISTORY_SQL, row: HISTORY_ROW, tail: HISTORY_CONFLICT },
    historyParams,
  );
  const outbox = fanOut(await withOrgs(db, rows, sinks), sinks);
  await insertRows(db, outbox, { head: OUTBOX_SQL, row: OUTBOX_ROW, tail: '' }, ({ sinkId, row }) => [
    sinkId,
    row.event.id,
    row.event.device,
    row.event.type,
    row.body,
    now,
    now,
  ]);
  return outbox.length;
}

/**
 * The same rows as JSON arrays, for PostgreSQL's one ingest statement (insert-with-totals.ts reads
 * them with json_to_recordset): `n` keeps the event order, which is each device's order.
 */
export function eventsJson(
  rows: readonly EventRow[],
  sinks: readonly Sink[],
): { history: string; outbox: string; outboxRows: number } {
  const history = rows.filter(kept).map(({ event, body, at }, n) => ({
    n,
    event_id: event.id,
    device_id: event.device,
    type: event.type,
    at,
    body,
  }));
  const outbox = fanOut(rows, sinks).map(({ sinkId, row }, n) => ({
    n,
    sink_id: sinkId,
    event_id: row.event.id,
    device_id: row.event.device,
    type: row.event.type,
    body: row.body,
  }));
  return { history: JSON.stringify(history), outbox: JSON.stringify(outbox), outboxRows: outbox.length };
}
