import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/**
 * A real OpenID Provider (panva's oidc-provider, OpenID Certified) on 127.0.0.1, port 0, with its
 * own login and consent pages (devInteractions: any login name, any password). Its port is known
 * before its client is (the relying party's redirect URI needs the relying party's port), so it
 * listens first and is configured by configure().
 */
export interface TestProvider {
  issuer: string;
  /** The claims each account gets, changed by tests between logins (read at every token request). */
  accounts: Map<string, Record<string, unknown>>;
  /** Why the provider refused token requests (the cause it logs and does not send). */
  grantErrors: string[];
  configure(client: { clientId: string; clientSecret: string; redirectUri: string }): void;
  close(): Promise<void>;
}

export async function startTestProvider(): Promise<TestProvider> {
  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | null = null;
  const server = createServer((req, res) => {
    if (handler) return handler(req, res);
    res.writeHead(503).end('not configured yet');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const accounts = new Map<string, Record<string, unknown>>();
  const grantErrors: string[] = [];
  return {
    issuer,
    accounts,
    grantErrors,
    configure({ clientId, clientSecret, redirectUri }) {
      const provider = new Provider(issuer, {
        clients: [
          {
            client_id: clientId,
            client_secret: clientSecret,
            redirect_uris: [redirectUri],
            grant_types: ['authorization_code'],
            response_types: ['code'],
          },
        ],
        scopes: ['openid', 'waypost'],
        claims: { openid: ['sub'], waypost: ['waypost_role', 'waypost_orgs', 'waypost_groups', 'name'] },
        findAccount: (_ctx: unknown, id: string) => ({
          accountId: id,
          claims: async () => ({ sub: id, ...(accounts.get(id) ?? {}) }),
        }),
        cookies: { keys: ['waypost-test-provider-cookie-key-0123456789'] },
        pkce: { required: () => true },
        features: { devInteractions: { enabled: true } },
      });
      // It says so on stderr about its development keys and pages: expected in a test.
      provider.on('server_error', (_ctx: unknown, error: Error) => console.error('provider error:', error));
      provider.on('grant.error', (_ctx: unknown, error: { error_detail?: string; cause?: Error }) =>
        grantErrors.push(error.cause?.message ?? error.error_detail ?? 'unknown'),
      );
      handler = provider.callback();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
