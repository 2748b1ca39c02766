import pg from 'pg';
import type { Queryable } from '../db/database.js';
import { parseDatabaseUrl } from '../db/postgres.js';
import type { PositionEvent } from '../live-events.js';
import type { LiveRelay } from './live-relay.js';
import { createCoalescer } from './coalescer.js';
import type { LiveFeed } from './live-feed.js';

/** NOTIFY payloads must stay under 8000 bytes; events are packed into payloads of at most this. */
export const MAX_PAYLOAD_CHARS = 7000;
const RECONNECT_MS = 1000;
/**
 * Positions stored within this window go out in one NOTIFY: under a fleet uploading one record
 * per request, a NOTIFY per request would compete with the ingest transactions for connections and
 * for PostgreSQL's notification-queue lock. A dashboard does not notice a tenth of a second.
 */
export const FLUSH_EVERY_MS = 100;

/** One channel per schema: servers on other schemas of the same database are other deployments. */
export const channelOf = (schema: string): string => `waypost_live_${schema}`.slice(0, 63);

/** Packs events (as JSON) into arrays whose text fits one NOTIFY; an event too large alone is left out. */
export function packPayloads(events: readonly PositionEvent[], maxChars = MAX_PAYLOAD_CHARS): string[] {
  const payloads: string[] = [];
  let parts: string[] = [];
  let size = 2;
  for (const event of events) {
    const text = JSON.stringify(event);
    if (text.length + 2 > maxChars) continue;
    if (size + text.length + 1 > maxChars) {
      payloads.push(`[${parts.join(',')}]`);
      parts = [];
      size = 2;
    }
    parts.push(text);
    size += text.length + 1;
  }
  if (parts.length > 0) payloads.push(`[${parts.join(',')}]`);
  return payloads;
}

/**
 * packPayloads' counterpart: emits a received payload's positions to this process's dashboards,
 * when one is watching. A payload that is not such an array (someone else's message on the same
 * channel or subject) is ignored.
 */
export function emitPayload(accept: (event: PositionEvent) => void, payload: string | undefined): void {
  if (!payload) return;
  try {
    for (const event of JSON.parse(payload) as PositionEvent[]) accept(event);
  } catch {
    // not ours: something unreadable on the channel
  }
}

/**
 * Scale-out live feed: every process NOTIFYs the positions it stores on the schema's channel, and
 * LISTENs on it with a dedicated connection, so each process's dashboards see every process's
 * positions (its own included: they come back through the channel, so they are never shown twice).
 * Publishing is coalesced: the positions stored within FLUSH_EVERY_MS go out in one NOTIFY. The feed is live only: a position published while a listener reconnects is
 * not replayed (the dashboard reloads tracks from the database).
 */
export async function createPostgresFeed(
  db: Queryable,
  url: string,
  schemaOption: string | undefined,
  relay: LiveRelay,
): Promise<LiveFeed> {
  const { connectionString, schema } = parseDatabaseUrl(url, schemaOption);
  const channel = channelOf(schema);
  let closed = false;
  let client: pg.Client | null = null;
  let reconnect: NodeJS.Timeout | null = null;

  const listen = async (): Promise<void> => {
    const next = new pg.Client({ connectionString });
    const retry = () => {
      next.removeAllListeners('end');
      next.end().catch(() => undefined);
      if (client === next) client = null;
      if (!closed && !reconnect)
        reconnect = setTimeout(() => ((reconnect = null), void listen().catch(retry)), RECONNECT_MS);
    };
    next.on('error', retry);
    next.on('end', retry);
    next.on('notification', (message) => emitPayload(relay.accept, message.payload));
    await next.connect();
    await next.query(`LISTEN "${channel}"`);
    client = next;
  };
  await listen();
  relay.start();

  const outgoing = createCoalescer(async (batch) => {
    for (const payload of packPayloads(batch)) {
      await db.query(`SELECT pg_notify(?, ?)`, [channel, payload]).catch(() => undefined);
    }
  }, FLUSH_EVERY_MS);
  return {
    publish(list) {
      if (closed || list.length === 0) return;
      outgoing.push(list);
    },
    async close() {
      closed = true;
      relay.stop();
      if (reconnect) clearTimeout(reconnect);
      await outgoing.drain();
      const last = client;
      client = null;
      if (last) {
        last.removeAllListeners('end');
        await last.end().catch(() => undefined);
      }
    },
  };
}
