import type { LocationInput } from '@waypost/sdk/internal';
import { LineSplitter } from './line-splitter.js';
import { NmeaEpochAssembler } from './nmea-epoch.js';
import { MAX_SENTENCE_CHARS, parseNmeaLine } from './nmea-sentence.js';

/** What was refused, so an operator can tell a bad cable or a wrong baud rate from a quiet sky. */
export interface NmeaStats {
  sentences: number;
  fixes: number;
  badChecksum: number;
  malformed: number;
  /** Lines too long to be NMEA (no newline for a long while: wrong baud rate, binary data). */
  overlong: number;
  /** Epochs without a valid position. */
  noFix: number;
}

/** Bytes in, fixes out: line splitting, parsing and epoch assembly, with everything refused counted. */
export class NmeaDecoder {
  private readonly lines = new LineSplitter(MAX_SENTENCE_CHARS);
  private readonly epochs: NmeaEpochAssembler;
  private counts = { sentences: 0, fixes: 0, badChecksum: 0, malformed: 0 };

  constructor(today: () => number) {
    this.epochs = new NmeaEpochAssembler(today);
  }

  push(chunk: Buffer | string): LocationInput[] {
    return this.decode(this.lines.push(chunk));
  }

  /** End of input: the last line and the last epoch. */
  end(): LocationInput[] {
    const fixes = this.decode(this.lines.end());
    const last = this.epochs.flush();
    this.counts.fixes += last.length;
    return [...fixes, ...last];
  }

  get stats(): NmeaStats {
    return { ...this.counts, overlong: this.lines.overlong, noFix: this.epochs.noFix };
  }

  private decode(lines: string[]): LocationInput[] {
    const fixes: LocationInput[] = [];
    for (const line of lines) {
      if (line.trim() === '') continue;
      const result = parseNmeaLine(line);
      if (!result.ok) {
        if (result.reason === 'checksum') this.counts.badChecksum++;
        else this.counts.malformed++;
        continue;
      }
      this.counts.sentences++;
      const out = this.epochs.push(result.sentence);
      this.counts.fixes += out.length;
      fixes.push(...out);
    }
    return fixes;
  }
}

/** Midnight UTC of the clock's current day. */
export function utcMidnight(now: number): number {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
}
