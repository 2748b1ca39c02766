// The OpenAPI document (issue 28 item 7): generated from the routes' own schemas, served at
// /openapi.json, valid per a third-party validator (@seriousme/openapi-schema-validator), and the
// committed docs/openapi.json is what the server generates (`npm run docs` regenerates it).
import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './helpers/backends.js';
import { startTestServer, type Json, type TestServer } from './helpers/client.js';

const COMMITTED = new URL('../../../docs/openapi.json', import.meta.url);

describe('the OpenAPI document', () => {
  let server: TestServer;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let document: any;
  beforeAll(async () => {
    server = await startTestServer(backends[0]!);
    const response = await fetch(`${server.url}/openapi.json`);
    expect(response.status).toBe(200);
    document = await response.json();
  });
  afterAll(async () => server.stop());

  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(document.openapi).toBe('3.1.0');
  });

  it('describes the routes with their own schemas', () => {
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/locations', '/api/devices/{id}/locations', '/api/session', '/metrics']),
    );
    // The login body's schema, as the route checks it (additionalProperties: false included).
    const login = document.paths['/api/session'].post.requestBody.content['application/json'].schema;
    // The admin token, or a user's name and password (issue 33).
    expect(login).toMatchObject({
      type: 'object',
      additionalProperties: false,
      oneOf: [{ required: ['token'] }, { required: ['user', 'password'] }],
    });
    expect(document.paths['/api/devices/{id}/locations'].get.parameters).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'id', in: 'path', required: true })]),
    );
  });

  it('names every operation uniquely, with its security requirement (issue 40 item 7)', () => {
    const operations = Object.entries(document.paths as Record<string, Record<string, Json>>).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([method]) => ['get', 'put', 'post', 'delete', 'patch'].includes(method))
        .map(([method, operation]) => ({ route: `${method.toUpperCase()} ${path}`, ...operation })),
    );
    expect(operations.length).toBeGreaterThan(140);
    const ids = operations.map((operation) => operation.operationId);
    expect(ids.filter((id) => typeof id !== 'string')).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
    const op = (route: string) => operations.find((operation) => operation.route === route)!;
    // Operator routes need the admin token or a user's session; uploads and the login need neither.
    const operatorAuth = [{ adminToken: [] }, { session: [] }];
    for (const route of ['GET /api/devices', 'GET /api/devices/{id}/locations', 'DELETE /api/users/{name}']) {
      expect(op(route).security, route).toEqual(operatorAuth);
    }
    for (const route of ['POST /api/session', 'GET /health']) {
      expect(op(route).security, route).toBeUndefined();
    }
    // Uploads take a device credential where the server requires one, and none where it does not.
    for (const route of ['POST /locations', 'POST /overland', 'GET /osmand']) {
      expect(op(route).security, route).toEqual(expect.arrayContaining([{}, { deviceCredential: [] }]));
    }
    expect(op('GET /osmand').security).toContainEqual({ deviceKeyQuery: [] });
    expect(op('POST /owntracks').security).toContainEqual({ deviceBasic: [] });
    expect(document.components.securitySchemes.session).toMatchObject({ type: 'apiKey', in: 'cookie' });
    expect(op('GET /api/devices/{id}/locations').operationId).toBe('getApiDevicesByIdLocations');
  });

  it("lists an export's query parameters, media types and paging headers (issue 40 item 7)", () => {
    const exportOp = document.paths['/api/devices/{id}/locations'].get;
    const query = (exportOp.parameters as Json[]).filter((p) => p.in === 'query').map((p) => p.name);
    expect(query.sort()).toEqual(['after', 'format', 'from', 'limit', 'to']);
    expect(Object.keys(exportOp.responses['200'].content).sort()).toEqual([
      'application/geo+json',
      'application/gpx+xml',
      'application/json',
      'application/vnd.google-earth.kml+xml',
      'text/csv',
    ]);
    expect(Object.keys(exportOp.responses['200'].headers)).toEqual(expect.arrayContaining(['link']));
    expect(exportOp.summary).toEqual(expect.any(String));
  });

  it("lists OsmAnd's parameters, names wildcards, and gives each answer its schema and headers (issues 40, 44)", () => {
    const osmand = (document.paths['/osmand'].get.parameters as Json[]).filter((p) => p.in === 'query');
    expect(osmand.map((p) => p.name)).toEqual(
      expect.arrayContaining([
        'id',
        'lat',
        'lon',
        'timestamp',
        'speed',
        'bearing',
        'altitude',
        'accuracy',
        'hdop',
        'batt',
      ]),
    );
    expect(Object.keys(document.paths).filter((path) => path.includes('*'))).toEqual([]);
    expect(document.paths['/assets/{path}'].get.parameters).toEqual([
      expect.objectContaining({ name: 'path', in: 'path', required: true }),
    ]);
    // Every operation: a summary, a schema or media type for each answer, Retry-After on each 429 and 503.
    let checked = 0;
    for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, Json>>)) {
      for (const [method, operation] of Object.entries(item)) {
        checked += 1;
        const route = `${method.toUpperCase()} ${path}`;
        expect(operation.summary, route).toEqual(expect.any(String));
        for (const [status, answer] of Object.entries(operation.responses as Record<string, Json>)) {
          expect(answer.description, `${route} ${status}`).not.toBe('Default Response');
          // /health's 503 tells a load balancer to stop sending, not when to come back.
          if ((status === '429' || status === '503') && path !== '/health')
            expect(Object.keys(answer.headers ?? {}), `${route} ${status}`).toContain('retry-after');
        }
      }
    }
    expect(checked).toBeGreaterThan(140);
  });

  it('is committed as docs/openapi.json, as generated (run npm run docs after changing a route)', () => {
    expect(JSON.parse(readFileSync(COMMITTED, 'utf8'))).toEqual(document);
  });
});
