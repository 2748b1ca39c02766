/**
 * The one query layer over both databases. SQL is written once with `?` placeholders and in the
 * dialect both SQLite (>= 3.35) and PostgreSQL accept (ON CONFLICT DO NOTHING, RETURNING); only the
 * table definitions differ, in migrations.ts.
 */
export type SqlValue = string | number | null | Buffer;
export type Row = Record<string, unknown>;

export interface Queryable {
  /** Which database: the few places whose SQL or duties differ ask (track-tiles/schema.ts). */
  readonly dialect: 'sqlite' | 'postgres';
  /** Runs a statement and returns its rows (RETURNING rows for writes; [] when it has none). */
  query<T extends Row = Row>(sql: string, params?: readonly SqlValue[]): Promise<T[]>;
  /** Runs a write and returns how many rows it changed. */
  run(sql: string, params?: readonly SqlValue[]): Promise<number>;
  /**
   * Runs one write `runs` times, with paramsOf(run)'s values (which may be one array refilled for
   * each run), and returns each run's changed-row count. Only where a
   * statement run is an in-process call (SQLite): there, one prepared single-row INSERT per record
   * costs about half of a multi-row INSERT ... RETURNING (no thousands of spread arguments, no
   * returned rows to build). Absent on PostgreSQL, where every run would be a round trip.
   */
  runEach?(sql: string, runs: number, paramsOf: (run: number) => readonly SqlValue[]): Promise<number[]>;
}

export interface TransactionOptions {
  /**
   * Parameterless statements run right after BEGIN, in the same round trip on PostgreSQL (one
   * simple-protocol query); fn receives the last one's rows. What every transaction of a kind
   * reads first (the fleet configuration's version, fleet/config-version.ts) costs no round trip.
   */
  begin?: string;
  /**
   * Statements run right before COMMIT, in COMMIT's round trip on PostgreSQL (given the rows of
   * `begin`; on SQLite one statement). A lock they take is held only while PostgreSQL commits,
   * never while this process runs code (fleet/config-version.ts).
   */
  end?: (begun: Row[]) => string;
}

export interface Database extends Queryable {
  /** Runs fn in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable, begun: Row[]) => Promise<T>, options?: TransactionOptions): Promise<T>;
  close(): Promise<void>;
}
