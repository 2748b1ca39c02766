import type { Queryable } from '../db/database.js';
import { readLedger } from '../store/ledger.js';

/** Devices whose ledger one scrape recomputes at most: a scrape stays short whatever the fleet. */
export const DEVICES_PER_REFRESH = 200;

/** What /metrics says of the whole fleet's ledgers (issue 19). */
export interface FleetLedgerTotals {
  /** Devices whose ledger is known (numbered records seen). */
  devices: number;
  /** Of them, devices with sequence numbers missing. */
  incomplete: number;
  /** Sequence numbers missing: neither received, quarantined nor reported dropped. */
  missing: number;
}

/**
 * The fleet's ledger totals for /metrics, kept up to date incrementally: each scrape recomputes the
 * ledgers of the devices heard from since their last computation (the most recently seen first, at
 * most DEVICES_PER_REFRESH of them) and sums what it knows. A fleet larger than that catches up
 * over a few scrapes; no scrape ever reads every device's records.
 */
export class FleetLedger {
  /** Per device: its missing count and when it was computed (a refresh's start). */
  private readonly known = new Map<string, { numbered: boolean; missing: number; seen: number }>();
  private running: Promise<void> | null = null;

  constructor(
    private readonly db: Queryable,
    private readonly now: () => number,
  ) {}

  /** Refreshes (one refresh at a time; concurrent scrapes share it) and answers the totals. */
  async totals(): Promise<FleetLedgerTotals> {
    this.running ??= this.refresh().finally(() => (this.running = null));
    await this.running;
    const totals: FleetLedgerTotals = { devices: 0, incomplete: 0, missing: 0 };
    for (const device of this.known.values()) {
      if (!device.numbered) continue;
      totals.devices += 1;
      totals.missing += device.missing;
      if (device.missing > 0) totals.incomplete += 1;
    }
    return totals;
  }

  private async refresh(): Promise<void> {
    const candidates = await this.db.query<{ id: string; last_seen: number }>(
      `SELECT id, last_seen FROM devices WHERE last_seen IS NOT NULL ORDER BY last_seen DESC`,
    );
    const started = this.now();
    // Heard from at or after its computation began (an upload in the same millisecond included).
    const stale = candidates.filter((d) => Number(d.last_seen) >= (this.known.get(d.id)?.seen ?? -Infinity));
    for (const device of stale.slice(0, DEVICES_PER_REFRESH)) {
      const ledger = await readLedger(this.db, device.id, { duplicates: 0, quarantined: 0 });
      // A device without numbered records (a foreign client) is remembered too, to be skipped.
      this.known.set(device.id, { numbered: ledger.highestSequence > 0, missing: ledger.missing, seen: started });
    }
  }
}
