import { CliError, usageError } from '../errors.js';

/** The schemes node-postgres accepts: Waypost's only database server. */
export const POSTGRES_SCHEMES = ['postgres:', 'postgresql:'] as const;

/** Where a DATABASE_URL points, without its user or password: for messages. */
export function databaseHost(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname || 'localhost'}:${parsed.port || '5432'}`;
  } catch {
    return 'an unreadable address';
  }
}

/**
 * DATABASE_URL must be a PostgreSQL URL: anything else (mysql://, a file name) would be handed to
 * node-postgres, which then fails with a protocol error naming neither. The URL itself is never
 * repeated: it may carry a password.
 */
export function checkDatabaseUrl(command: string, url: string): void {
  let scheme: string;
  try {
    scheme = new URL(url).protocol;
  } catch {
    throw usageError(
      `${command}: DATABASE_URL is not a URL; use postgres://USER:PASSWORD@HOST:5432/DATABASE, or unset it to use SQLite (--database)`,
    );
  }
  if (!(POSTGRES_SCHEMES as readonly string[]).includes(scheme)) {
    throw usageError(
      `${command}: DATABASE_URL uses ${scheme}// but Waypost stores in PostgreSQL only: use a ${POSTGRES_SCHEMES.map((s) => `${s}//`).join(' or ')} URL, or unset DATABASE_URL to use SQLite (--database)`,
    );
  }
}

/** Errors of a connection that never reached PostgreSQL, or that PostgreSQL refused at login. */
const CONNECTION_CODES: Record<string, string> = {
  ECONNREFUSED: 'refused the connection (is PostgreSQL running, on that port?)',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host not found (DNS lookup failed)',
  ETIMEDOUT: 'did not answer (timed out)',
  EHOSTUNREACH: 'host unreachable',
  ECONNRESET: 'closed the connection (is it PostgreSQL?)',
  '28P01': 'refused the user name or password',
  '28000': 'refused the login (pg_hba.conf)',
  '3D000': 'has no such database',
};

/**
 * A start that failed on the database connection, said with PostgreSQL, DATABASE_URL and host:port;
 * null when the error is something else. pg's own message is kept only for codes it does not name
 * a password in (it never does, but the URL is not echoed either way).
 */
export function databaseStartError(command: string, url: string, error: unknown): CliError | null {
  const e = error as { code?: unknown; message?: unknown; errors?: { code?: unknown }[] };
  // Node's happy-eyeballs connect reports an AggregateError whose parts carry the code.
  const code = typeof e?.code === 'string' ? e.code : e?.errors?.find((part) => typeof part.code === 'string')?.code;
  if (typeof code !== 'string' || !(code in CONNECTION_CODES)) return null;
  return new CliError(
    'SERVER',
    `${command}: could not start: PostgreSQL at ${databaseHost(url)} (DATABASE_URL) ${CONNECTION_CODES[code]} [${code}]`,
  );
}
