import type { LiveEvents, PositionEvent } from '../live-events.js';

/**
 * Where a process publishes the positions it stored. Dashboards subscribe to LiveEvents; the feed
 * decides who else hears of a position: nobody else on SQLite (one process), every process sharing
 * the database on PostgreSQL (see postgres-feed.ts).
 */
export interface LiveFeed {
  publish(events: readonly PositionEvent[]): void;
  close(): Promise<void>;
}

/** One process: positions go straight to this process's dashboards, and only when one is watching. */
export function createLocalFeed(events: LiveEvents): LiveFeed {
  return {
    publish(list) {
      if (!events.watched) return;
      for (const event of list) events.emit('position', event);
    },
    async close() {},
  };
}
