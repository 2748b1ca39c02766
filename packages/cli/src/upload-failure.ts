import type { HttpEvent } from '@waypost/node';

/** A server's reason is shown, not stored: one line, at most this long. */
export const MAX_REASON_CHARS = 200;

/** Text from outside on one line of a terminal: control characters (escapes, newlines) dropped, bounded. */
export function oneLine(text: string, max = MAX_REASON_CHARS): string {
  // eslint-disable-next-line no-control-regex
  const clean = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').trim();
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}

/** The `code` and message of an error reply (`{"code", "error"|"message"}`, as Waypost's server sends). */
function serverReason(responseText: string): string | null {
  let body: unknown;
  try {
    body = JSON.parse(responseText);
  } catch {
    return responseText.trim() === '' ? null : oneLine(responseText);
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return null;
  const { code, error, message } = body as Record<string, unknown>;
  const text = typeof error === 'string' ? error : typeof message === 'string' ? message : '';
  const parts = [typeof code === 'string' ? code : '', text].filter((part) => part !== '');
  return parts.length === 0 ? null : oneLine(parts.join(': '));
}

const NETWORK_CODES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'timed out',
  // undici refuses the Fetch standard's blocked ports (9, 25, 6000, ...) without connecting.
  'bad port': 'this port is one fetch never connects to (a blocked port of the Fetch standard); use another',
};

/**
 * How a failed upload reads for a person: `HTTP 400 NO_DEVICE: No device named: ...` when the server
 * answered (its code and message when the reply carries them), `no response: connection refused
 * (Request to 127.0.0.1:9 failed: ECONNREFUSED)` when it did not.
 */
export function describeUploadFailure(event: Pick<HttpEvent, 'status' | 'responseText' | 'error'>): string {
  if (event.status === 0) {
    const error = oneLine(event.error ?? 'the request failed');
    const known = Object.entries(NETWORK_CODES).find(([code]) => error.includes(code));
    return known ? `no response: ${known[1]} (${error})` : `no response: ${error}`;
  }
  const reason = serverReason(event.responseText);
  return reason ? `HTTP ${event.status} ${reason}` : `HTTP ${event.status}`;
}

/**
 * An upload that got no answer at all by the time the command stopped waiting for it (a server that
 * accepts the connection and never answers): no onHttp event has said anything yet, since the SDK
 * reports the request only once http.timeout aborts it. Named as the SDK will name it, TIMEOUT;
 * `waited` says how long and which flag bounded it ("2s (--give-up-after)").
 */
export function unansweredFailure(http: { url: string | null; timeout: number }, waited: string): string {
  let host = 'the server';
  try {
    if (http.url) host = new URL(http.url).host;
  } catch {
    // keep the generic name
  }
  return (
    `TIMEOUT: ${host} accepted the connection but sent no response within ${waited} ` +
    `(the SDK ends such a request after http.timeout, ${Math.round(http.timeout / 1000)} s)`
  );
}
