import type { Json, TestServer } from './client.js';

/** The anchor's own test data: a device as its SDK describes itself at registration. */
export const regData = (org: string, uuid: string) => ({
  org,
  uuid,
  model: 'iPhone10,4(x86_64)',
  manufacturer: 'Apple',
  version: '2.0',
  framework: 'flutter',
  platform: '13.3',
});

/** A request with an optional Bearer token and JSON body; the reply's status, JSON body and headers. */
export async function call(
  server: TestServer,
  method: string,
  path: string,
  init: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: Json; headers: Headers }> {
  const response = await fetch(server.url + path, {
    method,
    headers: {
      ...(init.token === undefined ? {} : { authorization: `Bearer ${init.token}` }),
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...init.headers,
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const text = await response.text();
  let body: Json = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: the text itself
  }
  return { status: response.status, body, headers: response.headers };
}

/** Registers through the anchor's route; the token pair. */
export async function register(server: TestServer, org: string, uuid: string, token?: string) {
  const reply = await call(server, 'POST', '/api/register', { body: regData(org, uuid), ...(token ? { token } : {}) });
  if (reply.status !== 200) throw new Error(`register answered ${reply.status}: ${JSON.stringify(reply.body)}`);
  return reply.body as { accessToken: string; refreshToken: string; expires: number };
}

/** An org's read token, which only the admin can ask for. */
export async function orgToken(server: TestServer, org: string): Promise<string> {
  const reply = await call(server, 'POST', '/api/site/jwt', { token: server.adminToken, body: { org } });
  if (reply.status !== 200) throw new Error(`jwt answered ${reply.status}`);
  return (reply.body as { access_token: string }).access_token;
}
