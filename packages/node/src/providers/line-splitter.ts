/**
 * Cuts a byte stream into lines with a bound on each: a device that never sends a newline (wrong
 * baud rate, binary protocol) cannot grow memory. An over-long line is dropped up to the next
 * newline and counted. Bytes are read as latin1 so that garbage cannot break decoding.
 */
export class LineSplitter {
  private buffer = '';
  private discarding = false;
  /** Lines dropped for being longer than the bound. */
  overlong = 0;

  constructor(private readonly maxChars: number) {}

  push(chunk: Buffer | string): string[] {
    const text = typeof chunk === 'string' ? chunk : chunk.toString('latin1');
    const lines: string[] = [];
    let from = 0;
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', from)) {
      const piece = text.slice(from, nl);
      from = nl + 1;
      if (this.discarding) {
        this.discarding = false;
        this.buffer = '';
        continue;
      }
      const line = (this.buffer + piece).replace(/\r$/, '');
      this.buffer = '';
      if (line.length > this.maxChars) this.overlong++;
      else lines.push(line);
    }
    if (!this.discarding) {
      this.buffer += text.slice(from);
      if (this.buffer.length > this.maxChars) {
        this.overlong++;
        this.discarding = true;
        this.buffer = '';
      }
    }
    return lines;
  }

  /** The unterminated rest at the end of input, if any (a file without a final newline). */
  end(): string[] {
    const rest = this.discarding ? '' : this.buffer.replace(/\r$/, '');
    this.buffer = '';
    this.discarding = false;
    return rest ? [rest] : [];
  }
}
