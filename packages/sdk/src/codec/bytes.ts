/**
 * The byte layer of the columnar coding (docs/wire-format.md): unsigned LEB128 varints up to
 * 2^53 - 1, zigzag for signed integers, and length-prefixed UTF-8 text. The reader checks every
 * length against what is left, so hostile input fails with a CodecError, never a huge allocation.
 */

/** A malformed or over-limit columnar body; `code` is what the server replies with. */
export class CodecError extends Error {
  constructor(
    readonly code: 'INVALID_COLUMNAR' | 'BODY_TOO_LARGE' | 'TOO_MANY_VALUES',
    message: string,
  ) {
    super(message);
    this.name = 'CodecError';
  }
}

export const invalid = (message: string): CodecError => new CodecError('INVALID_COLUMNAR', message);

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });
const TWO_32 = 2 ** 32;

export class ByteWriter {
  private buffer = new Uint8Array(1024);
  length = 0;

  private room(extra: number): void {
    if (this.length + extra <= this.buffer.length) return;
    const grown = new Uint8Array(Math.max(this.buffer.length * 2, this.length + extra));
    grown.set(this.buffer.subarray(0, this.length));
    this.buffer = grown;
  }

  byte(value: number): void {
    this.room(1);
    this.buffer[this.length++] = value;
  }

  /** An unsigned integer below 2^53 as LEB128. */
  uint(value: number): void {
    this.room(8);
    while (value >= 0x80) {
      this.buffer[this.length++] = (value % 0x80) | 0x80;
      value = Math.floor(value / 0x80);
    }
    this.buffer[this.length++] = value;
  }

  /** A signed integer of magnitude below 2^52, zigzagged (0, -1, 1, -2, ... → 0, 1, 2, 3, ...). */
  int(value: number): void {
    this.uint(value < 0 ? -2 * value - 1 : 2 * value);
  }

  bytes(data: Uint8Array): void {
    this.room(data.length);
    this.buffer.set(data, this.length);
    this.length += data.length;
  }

  /** UTF-8 text preceded by its byte length. */
  text(value: string): void {
    const data = encoder.encode(value);
    this.uint(data.length);
    this.bytes(data);
  }

  result(): Uint8Array {
    return this.buffer.slice(0, this.length);
  }
}

export class ByteReader {
  offset = 0;
  constructor(private readonly data: Uint8Array) {}

  get remaining(): number {
    return this.data.length - this.offset;
  }

  byte(): number {
    if (this.offset >= this.data.length) throw invalid('the body ends in the middle of a value');
    return this.data[this.offset++]!;
  }

  uint(): number {
    let value = 0;
    let scale = 1;
    for (let i = 0; i < 8; i++) {
      const b = this.byte();
      value += (b & 0x7f) * scale;
      if (b < 0x80) {
        if (value > Number.MAX_SAFE_INTEGER) break;
        return value;
      }
      scale *= 0x80;
    }
    throw invalid('a varint is longer than 2^53');
  }

  /** An unsigned integer that must not exceed `max` (a count, an index). */
  bounded(max: number, what: string): number {
    const value = this.uint();
    if (value > max) throw invalid(`${what} ${value} is over the limit of ${max}`);
    return value;
  }

  int(): number {
    const z = this.uint();
    return z % 2 === 0 ? z / 2 : -(z + 1) / 2;
  }

  bytes(count: number): Uint8Array {
    if (count > this.remaining) throw invalid('a length runs past the end of the body');
    const slice = this.data.subarray(this.offset, this.offset + count);
    this.offset += count;
    return slice;
  }

  /** Length-prefixed UTF-8 text and its byte length (what it will cost in the decoded body). */
  text(): { text: string; bytes: number } {
    const length = this.uint();
    const data = this.bytes(length);
    try {
      return { text: decoder.decode(data), bytes: length };
    } catch {
      throw invalid('a text is not valid UTF-8');
    }
  }
}

/** The last 4 of 16 bytes (a uuid) as a big-endian 32-bit word. */
export const lastWord = (data: Uint8Array): number =>
  data[12]! * 0x1000000 + (data[13]! << 16) + (data[14]! << 8) + data[15]!;

export const addWrapping = (word: number, delta: number): number => (word + delta) % TWO_32;
