// Issue 44: the server's error codes are one table (src/error-codes.ts), documented in
// docs/server-errors.md, and an answered code that is not in it fails here: every route of the app
// is called without a credential, with a token that is no one's and with a malformed body, and
// every code answered is looked up in the registry, with its status.
import { readFileSync, readdirSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
// The app's `waypostRoutes` decoration (its declaration lives with the module that decorates).
import type {} from '../src/http/route-list.js';
import {
  renderServerErrorTable,
  SERVER_ERROR_CODES,
  SERVER_ERROR_TABLE_MARKERS,
  type ServerErrorCode,
} from '../src/error-codes.js';
import { backends } from './helpers/backends.js';

const root = new URL('../../../', import.meta.url);
const registered = (code: string): code is ServerErrorCode => Object.hasOwn(SERVER_ERROR_CODES, code);

describe('the registry of server error codes', () => {
  it('is the table of docs/server-errors.md (npm run docs)', () => {
    const page = readFileSync(new URL('docs/server-errors.md', root), 'utf8');
    const [start, end] = SERVER_ERROR_TABLE_MARKERS;
    expect(page.indexOf(end)).toBeGreaterThan(page.indexOf(start));
    expect(page.slice(page.indexOf(start) + start.length, page.indexOf(end)).trim()).toBe(renderServerErrorTable());
  });

  it('holds every code the sources answer outside HttpError (whose code the type checker holds to it)', () => {
    const dir = new URL('packages/server/src/', root);
    const answered = (readdirSync(dir, { recursive: true }) as string[])
      .filter((file) => file.endsWith('.ts'))
      .flatMap((file) => [...readFileSync(new URL(file, dir), 'utf8').matchAll(/\.send\(\{[^;]*?code: '([A-Z_]+)'/g)])
      .map((match) => match[1]!);
    expect(answered.length).toBeGreaterThan(3);
    expect(answered.filter((code) => !registered(code))).toEqual([]);
  });
});

const ADMIN = 'admin-secret-admin-secret-admin-secret';

describe.each(backends)('every code answered by the routes on $name', (backend) => {
  let app: FastifyInstance;
  let url = '';
  let drop: () => Promise<void> = async () => undefined;
  beforeAll(async () => {
    const storage = await backend.create();
    drop = storage.drop;
    app = await buildApp({ ...storage.options, adminToken: ADMIN, mapStyle: null });
    url = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await app?.close();
    await drop();
  });

  it('is registered, with the status it is answered with', async () => {
    const answers: { request: string; status: number; code: unknown }[] = [];
    const call = async (method: string, path: string, headers: Record<string, string>, body?: string) => {
      const response = await fetch(url + path, { method, headers, ...(body === undefined ? {} : { body }) });
      const text = await response.text();
      if (response.status < 400 || !response.headers.get('content-type')?.includes('json')) return;
      answers.push({
        request: `${method} ${path}`,
        status: response.status,
        code: (JSON.parse(text) as { code?: unknown }).code,
      });
    };
    for (const route of app.waypostRoutes) {
      const [method, pattern] = route.split(' ') as [string, string];
      const path = pattern.replace(/:\w+/g, 'nothing-here').replace('*', 'nothing-here');
      await call(method, path, {});
      await call(method, path, { authorization: 'Bearer not-a-token-of-this-server' });
      if (method !== 'GET' && method !== 'DELETE') {
        await call(method, path, { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' }, '{"broken');
      }
    }
    await call('GET', '/no/such/route', {});
    await call('PATCH', '/api/devices', { authorization: `Bearer ${ADMIN}` });
    expect(answers.length).toBeGreaterThan(200);
    const unregistered = answers.filter(({ code }) => typeof code !== 'string' || !registered(code));
    expect(unregistered).toEqual([]);
    const wrongStatus = answers.filter(
      ({ code, status }) => !(SERVER_ERROR_CODES[code as ServerErrorCode].status as readonly number[]).includes(status),
    );
    expect(wrongStatus).toEqual([]);
  });
});
