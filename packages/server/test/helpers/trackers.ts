// Other trackers' published bodies (fixtures/trackers, sources in its SOURCES.md) and what a test
// reads back of a device: its stored records and its quarantine.
import { readFileSync } from 'node:fs';
import type { Json, TestServer } from './client.js';

const FIXTURES = new URL('../fixtures/trackers/', import.meta.url);

/** A fixture's bytes as text, exactly as published. */
export const fixture = (name: string): string => readFileSync(new URL(name, FIXTURES), 'utf8');

/** JSON with `//` comments (as traccar.org annotates its sample): the comments dropped, outside strings. */
export const withoutComments = (text: string): string =>
  text
    .split('\n')
    .map((line) => line.replace(/^((?:[^"/]|"(?:[^"\\]|\\.)*")*)\/\/.*$/, '$1'))
    .join('\n');

export interface StoredRow {
  uuid: string;
  timestamp: string;
  latitude: number;
  longitude: number;
  clockSuspect?: boolean;
  record: Json;
}

export async function storedOf(server: TestServer, device: string): Promise<StoredRow[]> {
  const reply = await server.admin(`/api/devices/${encodeURIComponent(device)}/locations`);
  if (reply.status === 404) return [];
  return reply.body as StoredRow[];
}

export async function quarantineOf(server: TestServer, device: string): Promise<{ code: string; raw: string }[]> {
  const reply = await server.admin(`/api/devices/${encodeURIComponent(device)}/quarantine`);
  if (reply.status === 404) return [];
  return (reply.body as { records: { code: string; raw: string }[] }).records;
}

/** A request (to a path of the server, or a whole URL) with any method, type and body; the answer's status and JSON (or text). */
export async function send(
  server: TestServer,
  method: string,
  path: string,
  body?: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Json; text: string }> {
  const url = /^https?:\/\//.test(path) ? path : server.url + path;
  const response = await fetch(url, { method, headers, ...(body === undefined ? {} : { body }) });
  const text = await response.text();
  let parsed: Json = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: the text
  }
  return { status: response.status, body: parsed, text };
}

export const JSON_TYPE = { 'content-type': 'application/json' };
export const FORM_TYPE = { 'content-type': 'application/x-www-form-urlencoded' };
