/**
 * The epoch of a store's numbering (issue 39). Sequence numbers start at 1 when a queue database
 * is created; a tracker whose database is wiped (a reinstall, a cleared browser profile, a second
 * simulator run) starts again at 1 under the same device id. Each numbering therefore carries an id
 * made when it starts, kept in the store's kv beside the counter and written into every numbered
 * record (`sequence_epoch`) and into drop reports, so the server's ledger keeps one account per
 * numbering instead of merging two.
 *
 * A store whose counter predates epochs keeps none (its records carry no `sequence_epoch`, as
 * before): giving it one now would make the server see a new numbering that did not start at 1.
 */

/** The kv key of the current numbering's epoch (absent: a numbering older than epochs). */
export const EPOCH_KEY = 'records.epoch';

/** What an epoch looks like on the wire: the SDK makes 24 hex digits; a server accepts 1-64 such characters. */
export const EPOCH_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** Random bits of an epoch: only the epochs of one device need to differ. */
const EPOCH_BYTES = 12;

/**
 * A new epoch id: 96 random bits as hex. Not uuid-shaped on purpose: the columnar coding writes a
 * uuid column as 16 bytes a row, while a column of one repeated text costs that text once.
 */
export function makeEpochId(
  random: (bytes: Uint8Array) => Uint8Array = (b) => globalThis.crypto.getRandomValues(b),
): string {
  return Array.from(random(new Uint8Array(EPOCH_BYTES)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The number a numbered insert takes, and the epoch it belongs to. */
export interface NumberStep {
  sequence: number;
  epoch: string | null;
  /** The numbering starts with this insert: the epoch to store in the same transaction. */
  newEpoch: string | null;
}

/**
 * The next number from the stored counter and epoch (kv texts, undefined when absent). A counter
 * that is absent starts a numbering: it gets a new epoch from `makeEpoch` (when the caller gives
 * one). A stored epoch that is not one (written by something else) counts as none.
 */
export function nextNumber(
  counter: string | undefined,
  storedEpoch: string | undefined,
  makeEpoch?: () => string,
): NumberStep {
  if (counter === undefined) {
    const epoch = makeEpoch?.() ?? null;
    return { sequence: 1, epoch, newEpoch: epoch };
  }
  const epoch = storedEpoch !== undefined && EPOCH_PATTERN.test(storedEpoch) ? storedEpoch : null;
  return { sequence: Number(counter) + 1, epoch, newEpoch: null };
}
