import type { RecordedRequest, Reply, ScriptedServer } from '@waypost/sdk/testing';

export interface TokenService {
  /** The service's origin: uploads go to `${base}/locations`, refreshes to `${base}/refresh`. */
  readonly base: string;
  readonly uploads: RecordedRequest[];
  readonly refreshes: RecordedRequest[];
  /** The access token uploads must carry (as `Bearer <token>`); anything else gets 401. */
  validToken: string | null;
  /** When false, tokens issued by /refresh are not accepted either (a server that always says 401). */
  acceptIssuedTokens: boolean;
  /** How /refresh answers; by default it issues `access-<n>` / `refresh-<n>` in OAuth2 shape. */
  refreshReply: (request: RecordedRequest, n: number) => { status: number; json?: unknown; text?: string };
}

/**
 * A token-protected service scripted on the kit's server: /locations checks the bearer token,
 * /refresh exchanges a refresh token (form-urlencoded, as the SDK sends it).
 */
export function tokenService(server: ScriptedServer, validToken: string | null = 'access-0'): TokenService {
  const service: TokenService = {
    base: new URL(server.url).origin,
    uploads: [],
    refreshes: [],
    validToken,
    acceptIssuedTokens: true,
    refreshReply: (_request, n) => ({
      status: 200,
      json: { access_token: `access-${n}`, refresh_token: `refresh-${n}`, token_type: 'Bearer', expires_in: 3600 },
    }),
  };
  server.setDefault((request): Reply => {
    if (request.url.startsWith('/refresh')) {
      service.refreshes.push(request);
      const reply = service.refreshReply(request, service.refreshes.length);
      const issued = (reply.json as { access_token?: string } | undefined)?.access_token;
      if (reply.status === 200 && issued && service.validToken !== null && service.acceptIssuedTokens)
        service.validToken = issued;
      return reply.text === undefined ? { status: reply.status, json: reply.json ?? {} } : reply;
    }
    service.uploads.push(request);
    const ok = service.validToken === null || request.headers['authorization'] === `Bearer ${service.validToken}`;
    return ok ? { status: 200, json: {} } : { status: 401, json: { error: 'invalid_token' } };
  });
  return service;
}
