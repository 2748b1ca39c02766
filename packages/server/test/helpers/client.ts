import { startServer, type BuildOptions, type RunningServer, type ServerOptions } from '@waypost/server';
import type { Backend } from './backends.js';

/** Reply bodies are whatever JSON the server sent; tests assert on their shape. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export interface TestServer extends RunningServer {
  /** Where its data lives (the SQLite file or the PostgreSQL URL and schema), for tests that edit rows. */
  storage: ServerOptions;
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<{ status: number; body: Json }>;
  admin(
    path: string,
    init?: { method?: string; body?: unknown; token?: string },
  ): Promise<{ status: number; body: Json; text: string }>;
  stop(): Promise<void>;
}

/** A real server on port 0 over fresh storage of the given backend. */
export async function startTestServer(backend: Backend, options: BuildOptions = {}): Promise<TestServer> {
  const storage = await backend.create();
  let server: RunningServer;
  try {
    // No street map unless a test serves one: a test never reaches past 127.0.0.1.
    const basemap = options.mapStyle === undefined && !options.tileUrl && !options.tileFile ? { mapStyle: null } : {};
    server = await startServer({ port: 0, adminToken: 'admin-secret', ...storage.options, ...basemap, ...options });
  } catch (error) {
    await storage.drop(); // a server that refused to start leaves no storage behind
    throw error;
  }
  const parse = (text: string): unknown => {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  };
  return {
    ...server,
    storage: storage.options,
    async post(path, body, headers = {}) {
      const response = await fetch(server.url + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
      return { status: response.status, body: parse(await response.text()) };
    },
    async admin(path, init = {}) {
      const response = await fetch(server.url + path, {
        method: init.method ?? 'GET',
        headers: {
          authorization: `Bearer ${init.token ?? server.adminToken}`,
          ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      });
      const text = await response.text();
      return { status: response.status, body: parse(text), text };
    },
    async stop() {
      await server.close();
      await storage.drop();
    },
  };
}

export const record = (uuid: string, latitude = 48.1, longitude = 11.5, timestamp = '2024-05-01T10:00:00.000Z') => ({
  uuid,
  timestamp,
  is_moving: true,
  odometer: 0,
  coords: { latitude, longitude, accuracy: 5, speed: 1, heading: 0, altitude: 500 },
  activity: { type: 'walking', confidence: 100 },
  battery: { level: 0.5, is_charging: false },
  extras: {},
});
