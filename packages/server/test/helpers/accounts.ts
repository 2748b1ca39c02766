import type { TestServer } from './client.js';

/** Logs a user in by name and password; the reply and its session cookie ("name=value"), if any. */
export async function loginAs(
  server: TestServer,
  user: string,
  password: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; cookie: string | null; body: unknown }> {
  const response = await fetch(`${server.url}/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ user, password }),
  });
  const setCookie = response.headers.get('set-cookie');
  const text = await response.text();
  return {
    status: response.status,
    cookie: setCookie ? setCookie.split(';')[0]! : null,
    body: text ? JSON.parse(text) : null,
  };
}

/** A request on a session cookie, with the browser's same-origin headers on writes. */
export async function asSession(
  server: TestServer,
  cookie: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: unknown }> {
  const response = await fetch(server.url + path, {
    method,
    headers: {
      cookie,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // an export or a stream: the text
  }
  return { status: response.status, body: parsed };
}
