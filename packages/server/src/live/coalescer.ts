import type { PositionEvent } from '../live-events.js';

/**
 * Coalesces published positions: those pushed within `everyMs` go to `send` together, one send at
 * a time; what is pushed while a send is on its way goes with the next. Shared by the PostgreSQL
 * (NOTIFY) and NATS live feeds.
 */
export function createCoalescer(send: (batch: PositionEvent[]) => void | Promise<void>, everyMs: number) {
  let pending: PositionEvent[] = [];
  let flushing: Promise<void> | null = null;
  const flush = async () => {
    const batch = pending;
    pending = [];
    await send(batch);
  };
  const schedule = () => {
    if (flushing) return;
    flushing = new Promise<void>((resolve) => setTimeout(resolve, everyMs)).then(flush).finally(() => {
      flushing = null;
      if (pending.length > 0) schedule();
    });
  };
  return {
    push(list: readonly PositionEvent[]): void {
      pending.push(...list);
      schedule();
    },
    /** Resolves once nothing is being sent (for close). */
    async drain(): Promise<void> {
      while (flushing) await flushing;
    },
  };
}
