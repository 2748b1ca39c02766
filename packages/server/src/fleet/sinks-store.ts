import { createHash, randomBytes } from 'node:crypto';
import type { Queryable } from '../db/database.js';
import { DEFAULT_EVENT_TYPES, type EventType } from './fleet-event.js';

export type SinkKind = 'webhook' | 'mqtt' | 'nats';

/** Where events go: a webhook URL or a broker. */
export interface Sink {
  id: string;
  kind: SinkKind;
  url: string;
  /** The webhook signing secret (whsec_...); null for brokers. */
  secret: string | null;
  /** The event types it receives. */
  events: readonly EventType[];
  /** 'api' (POST /api/webhooks) or 'cli' (--webhook, --mqtt, --nats). */
  origin: 'api' | 'cli';
  createdAt: number;
  /** Paused: events queue for it (its backlog) but none is delivered until resumed. */
  paused: boolean;
  /** The org whose devices' events it gets (issue 33), or null: every device's. */
  org: string | null;
  /** Made by an operator (issue 45): it may reach only outside addresses and the owner's allow-list. */
  confined: boolean;
}

interface SinkRow {
  id: string;
  kind: SinkKind;
  url: string;
  secret: string | null;
  events: string | null;
  origin: 'api' | 'cli';
  created_at: number;
  paused: number;
  org: string | null;
  confined: number;
}

/** A Standard Webhooks secret: whsec_ and 24 random bytes in base64. */
export const newWebhookSecret = (): string => `whsec_${randomBytes(24).toString('base64')}`;

const sinkOf = (row: SinkRow): Sink => ({
  id: row.id,
  kind: row.kind,
  url: row.url,
  secret: row.secret,
  events: row.events === null ? DEFAULT_EVENT_TYPES : (JSON.parse(row.events) as EventType[]),
  origin: row.origin,
  createdAt: Number(row.created_at),
  paused: Number(row.paused) === 1,
  org: row.org ?? null,
  confined: Number(row.confined) === 1,
});

export async function listSinks(db: Queryable): Promise<Sink[]> {
  const rows = await db.query<SinkRow & Record<string, unknown>>(
    `SELECT id, kind, url, secret, events, origin, created_at, paused, org, confined FROM sinks ORDER BY created_at, id`,
  );
  return rows.map(sinkOf);
}

export async function findSink(db: Queryable, id: string): Promise<Sink | null> {
  const rows = await db.query<SinkRow & Record<string, unknown>>(
    `SELECT id, kind, url, secret, events, origin, created_at, paused, org, confined FROM sinks WHERE id = ?`,
    [id],
  );
  return rows[0] ? sinkOf(rows[0]) : null;
}

export async function createSink(
  db: Queryable,
  sink: {
    kind: SinkKind;
    url: string;
    secret: string | null;
    events: EventType[] | null;
    org?: string | null;
    confined?: boolean;
  },
  now: number,
): Promise<Sink> {
  const id = `${sink.kind === 'webhook' ? 'wh' : sink.kind}_${randomBytes(12).toString('base64url')}`;
  const events = sink.events === null ? null : JSON.stringify(sink.events);
  await db.run(
    `INSERT INTO sinks (id, kind, url, secret, events, origin, created_at, org, confined)
     VALUES (?, ?, ?, ?, ?, 'api', ?, ?, ?)`,
    [id, sink.kind, sink.url, sink.secret, events, now, sink.org ?? null, sink.confined ? 1 : 0],
  );
  return (await findSink(db, id))!;
}

/**
 * A sink given on the command line, the same in every process started with it: its id comes from
 * its URL, and a webhook's secret is generated once and kept in the database.
 */
export async function ensureCliSink(
  db: Queryable,
  kind: SinkKind,
  url: string,
  events: EventType[] | null,
  now: number,
): Promise<Sink> {
  const id = `cli_${kind}_${createHash('sha256').update(url).digest('base64url').slice(0, 16)}`;
  await db.run(
    `INSERT INTO sinks (id, kind, url, secret, events, origin, created_at) VALUES (?, ?, ?, ?, ?, 'cli', ?)
     ON CONFLICT (id) DO UPDATE SET events = excluded.events`,
    [
      id,
      kind,
      url,
      kind === 'webhook' ? newWebhookSecret() : null,
      events === null ? null : JSON.stringify(events),
      now,
    ],
  );
  return (await findSink(db, id))!;
}

/** Removes a sink and everything still waiting for it. */
export async function deleteSink(db: Queryable, id: string): Promise<boolean> {
  await db.run(`DELETE FROM outbox WHERE sink_id = ?`, [id]);
  return (await db.run(`DELETE FROM sinks WHERE id = ?`, [id])) > 0;
}

/** Pauses or resumes a sink; false when there is no such sink. */
export async function setSinkPaused(db: Queryable, id: string, paused: boolean): Promise<boolean> {
  return (await db.run(`UPDATE sinks SET paused = ? WHERE id = ?`, [paused ? 1 : 0, id])) > 0;
}
