import type { Clock } from '../ports/clock.js';
import type { LogEntry, LogStore } from '../ports/store.js';
import { parseLogQuery, type LogQueryInput } from '../store/query.js';
import { LogLevel, levelName } from './levels.js';

export const DAY_MS = 86_400_000;

/** How many entries may wait in memory before they are written; also written on every tick. */
const MAX_BUFFERED_ENTRIES = 500;

/**
 * The SDK log (spec 4.3), kept in the store. Entries are buffered and written in one transaction
 * when `schedule` calls back (the next event-loop turn by default; the Node and browser hosts wait
 * longer), so the trace of every record costs a fraction of the record's own insert.
 */
export class SdkLogger {
  private level: number = LogLevel.INFO;
  private buffer: LogEntry[] = [];
  private scheduled = false;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: LogStore,
    private readonly clock: Clock,
    private readonly schedule: (fn: () => void) => void,
  ) {}

  setLevel(level: number): void {
    this.level = level;
  }

  error(tag: string, message: string): void {
    this.write(LogLevel.ERROR, tag, message);
  }
  warn(tag: string, message: string): void {
    this.write(LogLevel.WARNING, tag, message);
  }
  info(tag: string, message: string): void {
    this.write(LogLevel.INFO, tag, message);
  }
  debug(tag: string, message: string): void {
    this.write(LogLevel.DEBUG, tag, message);
  }

  private write(level: number, tag: string, message: string): void {
    if (level > this.level) return;
    this.buffer.push({ timestamp: this.clock.now(), level, tag, message });
    if (this.buffer.length >= MAX_BUFFERED_ENTRIES) void this.flush();
    else if (!this.scheduled) {
      this.scheduled = true;
      this.schedule(() => void this.flush());
    }
  }

  /** Writes what is buffered. Log writes never fail the caller: the queue matters more. */
  flush(): Promise<void> {
    this.scheduled = false;
    if (this.buffer.length === 0) return this.writing;
    const entries = this.buffer;
    this.buffer = [];
    this.writing = this.writing.then(() => this.store.append(entries)).catch(() => undefined);
    return this.writing;
  }

  /** The anchor's SQLQuery (start, end, limit, offset, order 1/-1), validated. */
  async read(query?: LogQueryInput): Promise<LogEntry[]> {
    const parsed = parseLogQuery(query);
    await this.flush();
    return this.store.read(parsed);
  }

  async text(query?: LogQueryInput): Promise<string> {
    // One line per entry, each ending in a newline: an empty log is the empty string.
    return (await this.read(query)).map((entry) => `${formatLogEntry(entry)}\n`).join('');
  }

  async destroy(): Promise<void> {
    this.buffer = [];
    await this.writing;
    await this.store.clear();
  }

  async prune(maxDays: number): Promise<number> {
    await this.flush();
    return this.store.prune(this.clock.now() - maxDays * DAY_MS);
  }
}

export function formatLogEntry(entry: LogEntry): string {
  return `${new Date(entry.timestamp).toISOString()} ${levelName(entry.level).padEnd(7)} [${entry.tag}] ${entry.message}`;
}
