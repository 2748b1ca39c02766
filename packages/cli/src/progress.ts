import type { Io } from './io.js';

const BAR_WIDTH = 28;

/**
 * Progress on stderr: one line redrawn in place on a terminal, a line per tenth otherwise (logs and
 * tests stay readable). Plain ANSI, no dependency.
 */
export class Progress {
  private lastTenth = -1;
  private drawn = false;

  constructor(private readonly stderr: Io['stderr']) {}

  update(fraction: number, text: string): void {
    const clamped = Math.min(1, Math.max(0, fraction));
    const percent = `${Math.floor(clamped * 100)}`.padStart(3);
    if (this.stderr.isTTY) {
      const filled = Math.round(clamped * BAR_WIDTH);
      const bar = `${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}`;
      this.stderr.write(`\r\x1b[K[${bar}] ${percent}% ${text}`);
      this.drawn = true;
      return;
    }
    const tenth = Math.floor(clamped * 10);
    if (tenth === this.lastTenth) return;
    this.lastTenth = tenth;
    this.stderr.write(`${percent}% ${text}\n`);
  }

  /** A message that must not be overwritten by the bar. */
  note(message: string): void {
    this.clear();
    this.stderr.write(`${message}\n`);
  }

  clear(): void {
    if (this.drawn) this.stderr.write('\r\x1b[K');
    this.drawn = false;
  }
}
