import { normalize, subtract, type Range } from '../ledger/ranges.js';
import type { ArchivedRecord, ReceiptArchive } from '../ports/archive.js';
import type { KeyValueStore } from '../ports/store.js';
import { formatReceiptedHeader, MAX_CLAIM_RANGES } from './receipted-header.js';

/** The kv key of what each upload URL receipted (the claim told with uploads). */
export const CLAIMS_KEY = 'receipts.claims';
/** The kv key of the repairs servers asked for, per upload URL. */
export const REPAIRS_KEY = 'receipts.repairs';

/** Records re-sent per repair at most in one flush (the rest follows in the next). */
export const MAX_REPAIR_RECORDS = 5000;

interface Claim {
  epoch: string | null;
  held: Range[];
  proof: string;
  /** Numbers asked for again that the archive no longer holds, until a 2xx carried them. */
  lost: Range[];
}

interface Repair {
  epoch: string | null;
  ranges: Range[];
}

/** What a repair re-sends now: the archived records found, and what was asked that is not held. */
export interface RepairWork {
  epoch: string | null;
  records: ArchivedRecord[];
  lost: Range[];
}

/**
 * The device's claims and the server's repair requests (issue 46), kept in the kv per upload URL:
 * what each URL receipted (its newest receipt the proof), and the ranges it asked for again. Each
 * change is a read-modify-write of one kv value, run one after another.
 */
export class ReceiptClaims {
  private tail: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly kv: KeyValueStore,
    private readonly archive: ReceiptArchive,
  ) {}

  /** `url` receipted `ranges` of numbering `epoch` with `receipt`. */
  receipted(url: string, epoch: string | null, ranges: readonly Range[], receipt: string): Promise<void> {
    return this.update<Claim>(CLAIMS_KEY, url, (claim) => {
      const same = claim?.epoch === epoch ? claim : null;
      const held = normalize([...(same?.held ?? []), ...ranges]);
      return { epoch, held: held.slice(-MAX_CLAIM_RANGES), proof: receipt, lost: same?.lost ?? [] };
    });
  }

  /** The Waypost-Receipted value for an upload to `url`, or null when it receipted nothing yet. */
  async header(url: string): Promise<string | null> {
    const claim = (await this.read<Claim>(CLAIMS_KEY))[url];
    return claim ? formatReceiptedHeader(claim) : null;
  }

  /** A 2xx from `url` to a request that carried `header`: the lost numbers it named are told. */
  told(url: string, header: string | null): Promise<void> {
    if (header === null || !header.includes('lost=')) return Promise.resolve();
    return this.update<Claim>(CLAIMS_KEY, url, (claim) => claim && { ...claim, lost: [] });
  }

  /** `url`'s server asked for `ranges` of numbering `epoch` again (remote command resendReceipted). */
  asked(url: string, epoch: string | null, ranges: readonly Range[]): Promise<void> {
    return this.update<Repair>(REPAIRS_KEY, url, (repair) => ({
      epoch,
      ranges: normalize([...(repair?.epoch === epoch ? repair.ranges : []), ...ranges]).slice(0, MAX_CLAIM_RANGES),
    }));
  }

  /**
   * What to re-send to `url` now: the archived records of the asked ranges that `url` receipted
   * (never another URL's), at most MAX_REPAIR_RECORDS; null when nothing is asked. What is asked
   * and not held is noted lost (told with the next upload), and leaves the repair.
   */
  async work(url: string): Promise<RepairWork | null> {
    const repair = (await this.read<Repair>(REPAIRS_KEY))[url];
    if (!repair || repair.ranges.length === 0) return null;
    const records = await this.archive.find({
      url,
      epoch: repair.epoch,
      ranges: repair.ranges,
      limit: MAX_REPAIR_RECORDS,
    });
    // Beyond the last record found, a full answer says nothing: only a short one proves absence.
    const reach = records.length < MAX_REPAIR_RECORDS ? Infinity : records.at(-1)!.sequence;
    const found = normalize(records.map((r): Range => [r.sequence, r.sequence]));
    const lost = subtract(repair.ranges, found).filter(([from]) => from <= reach);
    if (lost.length > 0) {
      await this.update<Claim>(CLAIMS_KEY, url, (claim) =>
        claim && claim.epoch === repair.epoch ? { ...claim, lost: normalize([...claim.lost, ...lost]) } : claim,
      );
    }
    return { epoch: repair.epoch, records, lost };
  }

  /** Whether any URL has a repair pending. */
  async anyRepair(): Promise<boolean> {
    return Object.keys(await this.read<Repair>(REPAIRS_KEY)).length > 0;
  }

  /** The records of `sent` reached `url`'s server (2xx): they leave the repair. */
  repaired(url: string, epoch: string | null, sent: readonly Range[]): Promise<void> {
    return this.update<Repair>(REPAIRS_KEY, url, (repair) => {
      if (!repair || repair.epoch !== epoch) return repair;
      const ranges = subtract(repair.ranges, normalize(sent));
      return ranges.length > 0 ? { epoch, ranges } : undefined;
    });
  }

  /** Drops what the repair could not find (told as lost): it is never asked of the archive again. */
  forget(url: string, epoch: string | null, lost: readonly Range[]): Promise<void> {
    return this.repaired(url, epoch, lost);
  }

  private async read<T>(key: string): Promise<Record<string, T>> {
    try {
      return JSON.parse((await this.kv.get(key)) ?? '{}') as Record<string, T>;
    } catch {
      return {};
    }
  }

  private update<T>(key: string, url: string, change: (value: T | undefined) => T | undefined | null): Promise<void> {
    const run = this.tail.then(async () => {
      const all = await this.read<T>(key);
      const next = change(all[url]);
      if (next === undefined || next === null) delete all[url];
      else all[url] = next;
      await this.kv.set(key, JSON.stringify(all));
    });
    this.tail = run.catch(() => undefined);
    return run;
  }
}
