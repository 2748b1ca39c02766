// The admin API through the session cookie (HttpOnly, set by POST /api/session): no token in
// script-readable storage, none in a URL.
import type { Method, PathParamName, Reply, RequestBody, SchemaRoute } from '../api-types.js';

export class Unauthorized extends Error {}

let onUnauthorized = (): void => {};
export function whenUnauthorized(callback: () => void): void {
  onUnauthorized = callback;
}

/** A request's options as the pages pass them: a method and a JSON body (already a string). */
export type ApiInit = { method?: string; body?: string; signal?: AbortSignal };

export async function api(path: string, init: ApiInit = {}): Promise<Response> {
  const headers: Record<string, string> = init.body === undefined ? {} : { 'content-type': 'application/json' };
  const response = await fetch(path, { ...init, headers, credentials: 'same-origin' });
  if (response.status === 401) {
    onUnauthorized();
    throw new Unauthorized('not logged in');
  }
  return response;
}

const errorOf = (body: unknown): string | undefined =>
  typeof body === 'object' && body !== null && 'error' in body && typeof body.error === 'string'
    ? body.error
    : undefined;

/**
 * The JSON of a route that declares no reply schema yet (see routeJson for those that do): the
 * caller gets `unknown` and must look before it reads.
 */
export async function apiJson(path: string, init?: ApiInit): Promise<unknown> {
  const response = await api(path, init);
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) throw new Error(errorOf(body) ?? 'HTTP ' + response.status);
  return body;
}

/** A route's address: its template with each {name} filled in, encoded. */
export function routePath<Route extends string>(route: Route, params: Record<PathParamName<Route>, string>): string {
  return route.replace(/\{(\w+)\}/g, (_match, name: string) =>
    encodeURIComponent((params as Record<string, string>)[name] ?? ''),
  );
}

/** Options of a typed call: the route's path parameters, a query string, and the body its schema takes. */
export type RouteCall<Route extends string, M extends Method> = {
  method: M;
  params: Record<PathParamName<Route>, string>;
  query?: string;
  body?: RequestBody<Route & SchemaRoute<M>, M>;
};

/**
 * A route that declares its reply schema, called by its template ('/api/devices/{id}/key'): the
 * reply is typed from that schema (docs/openapi.json), so a changed schema fails the type check here.
 */
export async function routeJson<M extends Method, Route extends SchemaRoute<M>>(
  route: Route,
  call: RouteCall<Route, M>,
): Promise<Reply<Route, M>> {
  const path = routePath(route, call.params) + (call.query ? '?' + call.query : '');
  const init: ApiInit = { method: call.method.toUpperCase() };
  if (call.body !== undefined) init.body = JSON.stringify(call.body);
  return (await apiJson(path, init)) as Reply<Route, M>;
}

export async function logIn(token: string): Promise<boolean> {
  const response = await fetch('/api/session', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token }),
    credentials: 'same-origin',
  });
  return response.ok;
}

/** A user's login (issue 33): their name and password, for the same session cookie. */
export async function logInAs(user: string, password: string): Promise<boolean | 'limited'> {
  const response = await fetch('/api/session', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user, password }),
    credentials: 'same-origin',
  });
  return response.status === 429 ? 'limited' : response.ok;
}

/** The session: null when none, else who it is ({user, role, orgs} for a user, {} for the admin). */
export async function loggedIn(): Promise<unknown> {
  const response = await fetch('/api/session', { credentials: 'same-origin' });
  return response.ok ? response.json() : null;
}

export async function logOut(): Promise<void> {
  await fetch('/api/session', { method: 'DELETE', credentials: 'same-origin' });
}
