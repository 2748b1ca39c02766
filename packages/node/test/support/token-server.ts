import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TokenServerRequest {
  path: string;
  headers: IncomingHttpHeaders;
  text: string;
}

export interface TokenServer {
  readonly url: string;
  readonly uploads: TokenServerRequest[];
  readonly refreshes: TokenServerRequest[];
  /** The access token uploads must carry (as `Bearer <token>`); anything else gets 401. */
  validToken: string | null;
  /** When false, tokens issued by /refresh are not accepted either (a server that always says 401). */
  acceptIssuedTokens: boolean;
  /** How /refresh answers; by default it issues `access-<n>` / `refresh-<n>` in OAuth2 shape. */
  refreshReply: (request: TokenServerRequest, n: number) => { status: number; json?: unknown; text?: string };
  close(): Promise<void>;
}

/**
 * A real token-protected service on 127.0.0.1: POST /locations checks the bearer token, POST
 * /refresh exchanges a refresh token (form-urlencoded, as the SDK sends it).
 */
export async function startTokenServer(validToken: string | null = 'access-0'): Promise<TokenServer> {
  const uploads: TokenServerRequest[] = [];
  const refreshes: TokenServerRequest[] = [];
  const state: TokenServer = {
    url: '',
    uploads,
    refreshes,
    validToken,
    acceptIssuedTokens: true,
    refreshReply: (_request, n) => ({
      status: 200,
      json: { access_token: `access-${n}`, refresh_token: `refresh-${n}`, token_type: 'Bearer', expires_in: 3600 },
    }),
    close: async () => undefined,
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = { path: req.url ?? '', headers: req.headers, text: Buffer.concat(chunks).toString('utf8') };
      let reply: { status: number; json?: unknown; text?: string };
      if (request.path.startsWith('/refresh')) {
        refreshes.push(request);
        reply = state.refreshReply(request, refreshes.length);
        const issued = (reply.json as { access_token?: string } | undefined)?.access_token;
        if (reply.status === 200 && issued && state.validToken !== null && state.acceptIssuedTokens)
          state.validToken = issued;
      } else {
        uploads.push(request);
        const ok = state.validToken === null || req.headers.authorization === `Bearer ${state.validToken}`;
        reply = ok ? { status: 200, json: {} } : { status: 401, json: { error: 'invalid_token' } };
      }
      res.writeHead(reply.status, { 'content-type': 'application/json' });
      res.end(reply.text ?? JSON.stringify(reply.json ?? {}));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  Object.assign(state, {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
  return state;
}
