import {
  countInRanges as countOf,
  normalizeRanges as normalize,
  subtractRanges as subtract,
  type DropReason,
  type SequenceRange as Range,
} from '@waypost/sdk/internal';

/** What the server holds of one numbering's sequence numbers, as ranges. */
export interface NumberingRows {
  received: Range[];
  quarantined: Range[];
  /** Removed by retention (received or quarantined once). */
  expired: Range[];
  dropped: { reason: DropReason; range: Range }[];
  /** Numbers a device proved acknowledged that the server no longer held, asked again (issue 46). */
  asked?: Range[];
  /** Of those, the ones the device no longer had either. */
  lost?: Range[];
}

/** One numbering's account: every number up to its highest is in exactly one of these, or missing. */
export interface NumberingAccount {
  highestSequence: number;
  received: number;
  quarantined: number;
  dropped: Record<DropReason, number>;
  expired: number;
  expiredRanges: Range[];
  missing: number;
  missingRanges: Range[];
  /** Received again after the server had lost them (asked for by receipt, issue 46). */
  recovered: number;
  /** Acknowledged by a receipt, lost by the server, and no longer held by the device. */
  lostAfterAck: number;
  lostAfterAckRanges: Range[];
}

/**
 * The delivery ledger's rule for one numbering (issue 19): received wins over a drop report (a
 * record dropped after it was delivered, or reported twice, counts once), expired numbers are not
 * missing unless stored again, a number reported under two reasons counts under the first of ttl,
 * cap, destroyed, and whatever is below the highest number and none of these is missing.
 */
export function accountNumbering(rows: NumberingRows): NumberingAccount {
  const received = normalize(rows.received);
  const quarantined = subtract(normalize(rows.quarantined), received);
  const expiredRanges = subtract(normalize(rows.expired), normalize([...received, ...quarantined]));
  const held = normalize([...received, ...quarantined, ...expiredRanges]);
  const lostAfterAckRanges = subtract(normalize(rows.lost ?? []), held);
  const accounted = normalize([...held, ...lostAfterAckRanges]);
  const lostOnce = normalize([...(rows.asked ?? []), ...(rows.lost ?? [])]);
  const dropped = { ttl: 0, cap: 0, destroyed: 0 } as Record<DropReason, number>;
  let droppedRanges: Range[] = [];
  for (const reason of ['ttl', 'cap', 'destroyed'] as DropReason[]) {
    const ranges = normalize(rows.dropped.filter((r) => r.reason === reason).map((r) => r.range));
    const own = subtract(subtract(ranges, accounted), droppedRanges);
    dropped[reason] = countOf(own);
    droppedRanges = normalize([...droppedRanges, ...own]);
  }
  const all = normalize([...accounted, ...droppedRanges]);
  const highestSequence = all.length === 0 ? 0 : all.at(-1)![1];
  const missingRanges = highestSequence === 0 ? [] : subtract([[1, highestSequence]], all);
  return {
    highestSequence,
    received: countOf(received),
    quarantined: countOf(quarantined),
    dropped,
    expired: countOf(expiredRanges),
    expiredRanges,
    missing: countOf(missingRanges),
    missingRanges,
    recovered: countOf(subtract(received, subtract(received, lostOnce))),
    lostAfterAck: countOf(lostAfterAckRanges),
    lostAfterAckRanges,
  };
}
