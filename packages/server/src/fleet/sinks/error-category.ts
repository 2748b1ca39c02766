import type { Role } from '../../accounts/roles.js';

/**
 * What a sink's last failure tells each reader (issue 45). The owner (and the admin token) reads
 * the failure as it was, to fix it; an operator reads only its kind, enough to see that a receiver
 * is down or slow, not what answered on which port (which made sinks a scanner of the server's
 * network); a viewer reads nothing.
 */
export type ErrorCategory = 'blocked' | 'refused' | 'timeout' | 'dns' | 'tls' | `HTTP ${number}xx` | 'failed';

export function errorCategory(message: string): ErrorCategory {
  const status = /^HTTP ([1-5])\d\d\b/.exec(message);
  if (status) return `HTTP ${Number(status[1])}xx`;
  if (message.startsWith('SINK_ADDRESS_BLOCKED')) return 'blocked';
  if (/ECONNREFUSED|ECONNRESET|CONNECTION_REFUSED|not connected|EHOSTUNREACH|ENETUNREACH/i.test(message))
    return 'refused';
  if (/time[sd]? ?out|no answer in|ETIMEDOUT/i.test(message)) return 'timeout';
  if (/ENOTFOUND|EAI_AGAIN/.test(message)) return 'dns';
  if (/certificate|TLS|SSL/i.test(message)) return 'tls';
  return 'failed';
}

/** A sink's last failure as `reader` may read it: whole, its category, or nothing. */
export function lastErrorFor(reader: { kind: 'admin' } | { kind: 'user'; role: Role }, message: string | null) {
  if (message === null) return null;
  if (reader.kind === 'admin' || reader.role === 'owner') return message;
  return reader.role === 'operator' ? errorCategory(message) : null;
}
