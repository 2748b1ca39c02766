import type { Queryable } from '../db/database.js';
import type { LiveEvents, PositionEvent } from '../live-events.js';

/** How often the database is asked for commits the feed missed, while a dashboard watches. */
export const RECONCILE_MS = 2000;
/** A commit is owed by the feed once it is this old: its live message has had time to come. */
const GRACE_MS = 1500;
/** Devices seen within this window are compared with what was told (clocks of hosts may differ). */
export const REPLAY_OVERLAP_MS = 60_000;

interface DeviceNow {
  id: string;
  records: number;
  last_latitude: number | null;
  last_longitude: number | null;
  last_recorded_at: number | null;
  last_seen: number | null;
}

/** The devices seen since `since`, as the database has them (a replay, a reconciliation). */
export async function devicesSeenSince(db: Queryable, since: number, limit: number): Promise<DeviceNow[]> {
  return db.query<DeviceNow & Record<string, unknown>>(
    `SELECT id, records, last_latitude, last_longitude, last_recorded_at, last_seen FROM devices
     WHERE last_seen >= ? ORDER BY last_seen DESC LIMIT ?`,
    [since, limit],
  );
}

/** The device's count and last position as a feed event, or null when it has no position. */
export function eventOf(row: DeviceNow, stored: number, flag: 'catchUp' | 'replay'): PositionEvent | null {
  if (row.last_latitude === null || row.last_longitude === null || row.last_recorded_at === null) return null;
  return {
    deviceId: row.id,
    stored,
    records: Number(row.records),
    latitude: Number(row.last_latitude),
    longitude: Number(row.last_longitude),
    timestamp: new Date(Number(row.last_recorded_at)).toISOString(),
    [flag]: true,
  };
}

/**
 * Between a process's scale-out feed (NATS, NOTIFY) and its dashboards: tells each commit once and,
 * per device, in commit order (by the device's record count), and tells what the feed missed. A
 * message lost (a NATS node stopped, this process cut off, the process that committed killed
 * before it published) shows as a jump in the count: the next event of the device tells the
 * missed records with it (catchUp), and every RECONCILE_MS the database's counts of the devices
 * seen lately are compared with what was told, so a device gone quiet after a lost message is
 * told too.
 */
export function createLiveRelay(db: Queryable | null, events: LiveEvents, now: () => number) {
  /** Per device, the record count told so far (from the database at start, then each event). */
  const told = new Map<string, number>();
  let baseline: Promise<void> | null = null;
  /** Once the start's counts are in, a device not among them was new since: it had none before. */
  let baselineLoaded = false;
  const loadBaseline = async () => {
    if (!db) return;
    const rows = await db.query<{ id: string; records: number }>(`SELECT id, records FROM devices`);
    for (const row of rows) if (!told.has(row.id)) told.set(row.id, Number(row.records));
    baselineLoaded = true;
  };
  let timer: NodeJS.Timeout | null = null;
  const emit = (event: PositionEvent) => {
    if (events.watched) events.emit('position', event);
  };

  const relay = {
    /** A commit's event, from this process or another: told unless already told. */
    accept(event: PositionEvent): void {
      if (typeof event.records !== 'number') return emit(event); // a process of an older version
      const before = told.get(event.deviceId) ?? (baselineLoaded ? 0 : undefined);
      if (before !== undefined && event.records <= before) return; // told already (a catch-up came first)
      told.set(event.deviceId, event.records);
      const missed = before !== undefined && event.records - event.stored > before;
      emit(missed ? { ...event, stored: event.records - before, catchUp: true } : event);
    },
    /** Compares the devices seen lately with what was told; tells what is missing. */
    async reconcile(): Promise<void> {
      if (!db) return;
      baseline ??= loadBaseline().catch((error: unknown) => {
        baseline = null;
        throw error;
      });
      await baseline;
      const at = now();
      for (const row of await devicesSeenSince(db, at - REPLAY_OVERLAP_MS, 100_000)) {
        const before = told.get(row.id) ?? 0;
        const records = Number(row.records);
        if (records < before) told.set(row.id, records); // its records were removed (retention, purge)
        if (records <= before || Number(row.last_seen) > at - GRACE_MS) continue;
        told.set(row.id, records);
        const event = eventOf(row, records - before, 'catchUp');
        if (event) emit(event);
      }
    },
    /** Reads the start's counts now, then reconciles every RECONCILE_MS while a dashboard watches. */
    start(): void {
      const round = () => {
        if (!baselineLoaded || events.watched) relay.reconcile().catch(() => undefined); // the next round retries
      };
      round();
      timer = setInterval(round, RECONCILE_MS);
      timer.unref();
    },
    stop(): void {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
  return relay;
}

export type LiveRelay = ReturnType<typeof createLiveRelay>;
