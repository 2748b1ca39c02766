/**
 * Upload bodies parsed at once, bounded by their bytes (issue 43). A fleet's uploads arrive
 * faster than commits take them; parsed on arrival, every one waiting for a commit would sit in
 * memory as objects (its records, parsed and normalized) that the garbage collector's young
 * generation copies at each scavenge and promotes at the next: on SQLite with batches of 100, the
 * runs that promoted them spent about a fifth more CPU a record. Waiting to be parsed instead, an
 * upload waits as the bytes it was read as, much as it does for a service that handles one request
 * at a time. The budget keeps enough parsed to fill every commit slot's next group. (It also bounds
 * the memory a flood of large uploads takes as objects.) Pure: http/upload-admission.ts calls it.
 */
export class ParseAdmission {
  private admitted = 0;
  private readonly waiting: Ticket[] = [];

  constructor(readonly budgetBytes: number) {}

  /** Bytes of the bodies admitted and not yet answered. */
  get inUseBytes(): number {
    return this.admitted;
  }

  /** Uploads waiting for room. */
  get waitingCount(): number {
    return this.waiting.length;
  }

  /**
   * Runs `enter` once `bytes` fit in the budget (at once when they do; a body larger than the
   * whole budget enters when nothing else is admitted), in arrival order. The returned `leave` is
   * called once the request is over, answered or its connection closed, admitted or not.
   */
  admit(bytes: number, enter: () => void): () => void {
    const ticket: Ticket = { bytes, enter, state: 'waiting' };
    if (this.waiting.length === 0 && this.fits(bytes)) this.enter(ticket);
    else this.waiting.push(ticket);
    return () => this.leave(ticket);
  }

  private fits(bytes: number): boolean {
    return this.admitted === 0 || this.admitted + bytes <= this.budgetBytes;
  }

  private enter(ticket: Ticket): void {
    ticket.state = 'admitted';
    this.admitted += ticket.bytes;
    ticket.enter();
  }

  private leave(ticket: Ticket): void {
    if (ticket.state === 'admitted') this.admitted -= ticket.bytes;
    else if (ticket.state === 'waiting') this.waiting.splice(this.waiting.indexOf(ticket), 1);
    ticket.state = 'left';
    while (this.waiting.length > 0 && this.fits(this.waiting[0]!.bytes)) this.enter(this.waiting.shift()!);
  }
}

interface Ticket {
  readonly bytes: number;
  readonly enter: () => void;
  state: 'waiting' | 'admitted' | 'left';
}
