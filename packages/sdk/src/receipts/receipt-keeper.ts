import type { Config } from '../config/types.js';
import { ServerOffers } from '../http/server-offers.js';
import type { Range } from '../ledger/ranges.js';
import type { Clock } from '../ports/clock.js';
import { normalize } from '../ledger/ranges.js';
import type { SdkLogger } from '../log/logger.js';
import type { ReceiptArchive } from '../ports/archive.js';
import type { KeyValueStore, StoredRecord } from '../ports/store.js';
import { receiptDays, type ReceiptDay } from './receipt-days.js';
import { repairRequestOf } from '../remote/command-table.js';
import { ReceiptClaims, type RepairWork } from './receipt-claims.js';
import { pinReceiptKey, type PinnedKeys } from './receipt-pins.js';
import {
  parseReceipt,
  parseReceiptKeyHeader,
  receiptDigest,
  RECEIPT_HEADER,
  RECEIPT_KEY_HEADER,
  RECEIPTS_OFFERED_HEADER,
  verifySigned,
  type ReceiptPayload,
} from './receipt.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The kv key of the receipt keys pinned per upload URL. */
export const RECEIPT_PINS_KEY = 'receipts.keys';

/**
 * The kv key of the upload URLs whose server offers receipts (http/server-offers.ts). Kept across
 * restarts: a device that only remembered the offer in memory sent the first upload of every start
 * without asking for a receipt and without its claim, so that batch was deleted unarchived and a
 * server that had lost records learned it an upload late.
 */
export const RECEIPT_OFFERS_KEY = 'receipts.offers';

/** Why a 2xx's records were deleted rather than archived (log codes). */
export type ReceiptFailure =
  | 'RECEIPT_MISSING'
  | 'RECEIPT_INVALID'
  | 'RECEIPT_KEY_UNKNOWN'
  | 'RECEIPT_KEY_CHANGED'
  | 'RECEIPT_SIGNATURE'
  | 'RECEIPT_MISMATCH';

export type ReceiptCheck =
  | { ok: true; payload: ReceiptPayload; receipt: string; records: { id: number; sequence: number }[] }
  | { ok: false; code: ReceiptFailure; why: string };

/** A record's sequence number and numbering, read from its JSON (what the server read too). */
function numberOf(record: StoredRecord): { sequence: number; epoch: string | null } | null {
  try {
    const value = JSON.parse(record.json) as { sequence?: unknown; sequence_epoch?: unknown };
    const sequence = value?.sequence;
    if (typeof sequence !== 'number' || !Number.isSafeInteger(sequence) || sequence < 1) return null;
    const epoch = typeof value.sequence_epoch === 'string' && value.sequence_epoch !== '' ? value.sequence_epoch : null;
    return { sequence, epoch };
  } catch {
    return null;
  }
}

/**
 * The SDK's side of delivery receipts (receipt.ts): which upload URLs offer them, the check of a
 * 2xx's receipt (its key pinned per URL, its signature, its digest against the records sent), and
 * the move of the receipted records into the store's archive. Anything that does not verify leaves
 * the spec's behaviour untouched: a 2xx deletes its records (spec 3), with a log line saying why
 * they were not kept.
 */
export class ReceiptKeeper {
  /** Upload URLs that offer receipts (RECEIPT_OFFERS_KEY). */
  private readonly offers: ServerOffers;
  private tail: Promise<unknown> = Promise.resolve();
  /** The upload URL of the answer being handled: its remote commands came from it. */
  private answering: string | null = null;
  private readonly claims: ReceiptClaims | null;
  /** A repair may be pending (one kept from an earlier run, or asked since): only then is the kv read. */
  private repairsMaybe = true;

  constructor(
    private readonly kv: KeyValueStore,
    private readonly archive: ReceiptArchive | undefined,
    private readonly logger: SdkLogger,
    private readonly clock: Clock,
    private readonly config: () => Config,
  ) {
    this.claims = archive ? new ReceiptClaims(kv, archive) : null;
    this.offers = new ServerOffers(kv, RECEIPT_OFFERS_KEY);
  }

  /**
   * What a response of `url` said: its Waypost-Receipts-Offered header offers receipts; a 2xx
   * without it withdraws the offer (another server answers at that URL now: it sees nothing new).
   */
  heard(url: string, status: number, headers: Readonly<Record<string, string>> | undefined): Promise<void> | undefined {
    this.answering = url;
    if (!this.archive) return undefined;
    return this.offers.heard(url, status, headers?.[RECEIPTS_OFFERED_HEADER]?.trim() === '1');
  }

  /** The Waypost-Receipted value for an upload to `url` (how far its receipts go), or null. */
  async claim(url: string): Promise<string | null> {
    return this.claims && (await this.asks(url)) ? this.claims.header(url) : null;
  }

  /**
   * A server's resendReceipted command (checked by the command table): the repair is kept for the
   * URL whose answer carried it, and the uploader re-sends from the archive after its next flush.
   */
  async requested(request: unknown): Promise<void> {
    const repair = repairRequestOf(request);
    const url = this.answering;
    if (!repair || !url || !this.claims) throw new Error('no receipt archive, or no upload answer carried it');
    await this.claims.asked(url, repair.epoch, repair.ranges);
    this.repairsMaybe = true;
  }

  /** The records to re-send to `url` now (see ReceiptClaims.work), or null. */
  async repairWork(url: string): Promise<RepairWork | null> {
    if (!this.claims || !this.repairsMaybe) return null;
    const work = await this.claims.work(url);
    // Nothing pending for this URL: the kv is read again only when a server asks.
    if (work === null && !(await this.claims.anyRepair())) this.repairsMaybe = false;
    return work;
  }

  /** Re-sent records reached the server (`sent`), or were found lost (`lost`): they leave the repair. */
  async repaired(url: string, epoch: string | null, ranges: readonly Range[]): Promise<void> {
    await this.claims?.repaired(url, epoch, ranges);
  }

  /** Whether uploads to `url` ask for a receipt (its server offered them, and the store can keep them). */
  asks(url: string): boolean | Promise<boolean> {
    return this.archive !== undefined && this.offers.has(url);
  }

  /** Checks a 2xx's receipt against the records `batch` sent to `url`. */
  async check(
    url: string,
    batch: readonly StoredRecord[],
    headers: Readonly<Record<string, string>> | undefined,
  ): Promise<ReceiptCheck> {
    const value = headers?.[RECEIPT_HEADER];
    if (!value) return { ok: false, code: 'RECEIPT_MISSING', why: 'the 2xx carried no receipt' };
    const parsed = parseReceipt(value);
    if (!parsed.ok) return { ok: false, code: 'RECEIPT_INVALID', why: parsed.why };
    const { payload } = parsed;
    const key = await this.serial(async () => {
      const pins = JSON.parse((await this.kv.get(RECEIPT_PINS_KEY)) ?? '{}') as PinnedKeys;
      const header = headers?.[RECEIPT_KEY_HEADER];
      const result = await pinReceiptKey(pins[url] ?? {}, payload.kid, header ? parseReceiptKeyHeader(header) : null);
      if (result.ok && result.pinned) {
        pins[url] = result.pins;
        await this.kv.set(RECEIPT_PINS_KEY, JSON.stringify(pins));
      }
      return result;
    });
    if (!key.ok) return { ok: false, code: key.code, why: key.why };
    if (!(await verifySigned(key.key, parsed.signed, parsed.signature))) {
      return { ok: false, code: 'RECEIPT_SIGNATURE', why: `the signature does not verify with key ${payload.kid}` };
    }
    const covered: { id: number; sequence: number; uuid: string }[] = [];
    for (const record of batch) {
      const number = numberOf(record);
      if (number && number.epoch === payload.ep && inRanges(payload.r, number.sequence)) {
        covered.push({ id: record.id, sequence: number.sequence, uuid: record.uuid });
      }
    }
    const expected = payload.r.reduce((n, [a, b]) => n + b - a + 1, 0);
    const distinct = new Set(covered.map((r) => r.sequence)).size;
    if (distinct !== expected || covered.length !== expected || (await receiptDigest(covered)) !== payload.d) {
      return { ok: false, code: 'RECEIPT_MISMATCH', why: 'the receipt names other records than the upload sent' };
    }
    return { ok: true, payload, receipt: value, records: covered.map(({ id, sequence }) => ({ id, sequence })) };
  }

  /**
   * A 2xx from `url` for `batch`: archives the receipted records, and answers the ids still to
   * delete (all of them when the receipt does not verify or none was asked for).
   */
  async delivered(
    url: string,
    batch: readonly StoredRecord[],
    headers: Readonly<Record<string, string>> | undefined,
    claim: string | null = null,
  ): Promise<number[]> {
    const ids = batch.map((r) => r.id);
    if (!this.archive || !(await this.asks(url))) return ids;
    await this.claims?.told(url, claim);
    if (batch.length === 0) return ids;
    const check = await this.check(url, batch, headers);
    if (!check.ok) {
      this.logger.warn('HTTP', `${check.code}: delivered records deleted, not archived: ${check.why}`);
      return ids;
    }
    const ranges: Range[] = normalize(check.records.map((r): Range => [r.sequence, r.sequence]));
    await this.archive.keep(check.records, {
      url,
      receipt: check.receipt,
      epoch: check.payload.ep,
      ranges,
      at: this.clock.now(),
    });
    await this.claims?.receipted(url, check.payload.ep, ranges, check.receipt);
    await this.prune();
    this.logger.info('HTTP', `ARCHIVE ${check.records.length} records under receipt (key ${check.payload.kid})`);
    const kept = new Set(check.records.map((r) => r.id));
    return ids.filter((id) => !kept.has(id));
  }

  /** The kept receipts per day (receipt-days.ts), within the window. */
  async days(): Promise<ReceiptDay[]> {
    if (!this.archive) return [];
    await this.prune();
    return receiptDays(await this.archive.receipts());
  }

  /** The archive's window (persistence.maxDaysToArchive, maxArchiveBytes), oldest out first. */
  async prune(): Promise<number> {
    if (!this.archive) return 0;
    const { maxDaysToArchive, maxArchiveBytes } = this.config().persistence;
    return this.archive.prune({
      olderThan: this.clock.now() - maxDaysToArchive * DAY_MS,
      maxBytes: maxArchiveBytes,
    });
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.tail.then(fn);
    this.tail = run.catch(() => undefined);
    return run;
  }
}

const inRanges = (ranges: readonly Range[], n: number): boolean => ranges.some(([a, b]) => n >= a && n <= b);
