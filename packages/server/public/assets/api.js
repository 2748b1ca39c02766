// The admin API through the session cookie (HttpOnly, set by POST /api/session): no token in
// script-readable storage, none in a URL.

export class Unauthorized extends Error {}

let onUnauthorized = () => {};
export function whenUnauthorized(callback) {
  onUnauthorized = callback;
}

export async function api(path, init = {}) {
  const headers = init.body === undefined ? {} : { 'content-type': 'application/json' };
  const response = await fetch(path, { ...init, headers, credentials: 'same-origin' });
  if (response.status === 401) {
    onUnauthorized();
    throw new Unauthorized('not logged in');
  }
  return response;
}

export async function apiJson(path, init) {
  const response = await api(path, init);
  const body = await response.json().catch(() => null);
  if (!response.ok) throw new Error((body && body.error) || 'HTTP ' + response.status);
  return body;
}

export async function logIn(token) {
  const response = await fetch('/api/session', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token }),
    credentials: 'same-origin',
  });
  return response.ok;
}

/** A user's login (issue 33): their name and password, for the same session cookie. */
export async function logInAs(user, password) {
  const response = await fetch('/api/session', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user, password }),
    credentials: 'same-origin',
  });
  return response.status === 429 ? 'limited' : response.ok;
}

/** The session: null when none, else who it is ({user, role, orgs} for a user, {} for the admin). */
export async function loggedIn() {
  const response = await fetch('/api/session', { credentials: 'same-origin' });
  return response.ok ? response.json() : null;
}

export async function logOut() {
  await fetch('/api/session', { method: 'DELETE', credentials: 'same-origin' });
}
