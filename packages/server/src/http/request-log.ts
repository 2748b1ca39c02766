import type { FastifyRequest } from 'fastify';

/** Query parameters whose values are credentials or could be: never written to the log. */
const SECRET_PARAM = /token|secret|password|passwd|key|auth|session|signature|sig$|code/i;

/** Paths whose segment after the prefix is a capability (a share link's token). */
const SECRET_PATH = /^\/s\/[^/?#]*/;

/**
 * The URL with the values of credential-like query parameters, and the token of a share link
 * (/s/<token>), replaced by [REDACTED].
 */
export function redactUrl(raw: string): string {
  const url = raw.replace(SECRET_PATH, '/s/[REDACTED]');
  const at = url.indexOf('?');
  if (at < 0) return url;
  const query = url
    .slice(at + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {
        // A name that does not decode is judged as sent.
      }
      return eq >= 0 && SECRET_PARAM.test(decoded) ? `${name}=[REDACTED]` : pair;
    });
  return `${url.slice(0, at)}?${query.join('&')}`;
}

/**
 * The request log's view of a request: method, URL (redacted) and client address, and no headers:
 * Authorization and Cookie carry credentials; the redact paths below are a second guard.
 */
export const requestLogOptions = {
  serializers: {
    req: (request: FastifyRequest) => ({
      method: request.method,
      url: redactUrl(request.url),
      remoteAddress: request.ip,
    }),
  },
  redact: {
    paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
    censor: '[REDACTED]',
  },
};
