// Issue 44: a route declares its contract in its own options: its answers (schema.response, the
// failures among them) and its path parameters. A route that declares no response schema, or reads
// path parameters it does not declare, stops the server from starting, naming the route.
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { ACCESS } from '../src/accounts/route-rules.js';
import { buildApp } from '../src/app.js';
import { failures } from '../src/http/route-schema.js';

const options = { database: ':memory:', adminToken: 'a'.repeat(32), mapStyle: null };
const REPLY = { 200: { type: 'object', properties: { id: { type: 'string' } } }, ...failures('UNKNOWN_DEVICE') };

/** Whether a scratch server with this one extra route starts; its refusal when it does not. */
async function startWith(route: (plugin: FastifyInstance) => unknown) {
  const app = await buildApp(options);
  try {
    await app.register(async (plugin) => route(plugin));
    await app.ready();
    const answer = await app.inject({ method: 'GET', url: '/api/scratch/d1' });
    return { started: true as const, status: answer.statusCode, body: answer.json() as unknown };
  } catch (error) {
    return { started: false as const, error: (error as Error).message };
  } finally {
    await app.close();
  }
}

describe('a route without its schemas', () => {
  it('stops the server from starting when it declares no response schema', async () => {
    const result = await startWith((plugin) =>
      plugin.get('/api/scratch', { config: ACCESS.public }, async () => ({ open: true })),
    );
    expect(result).toEqual({
      started: false,
      error: expect.stringContaining('GET /api/scratch declares no response schema'),
    });
  });

  it('stops the server from starting when it reads path parameters it does not declare', async () => {
    const result = await startWith((plugin) =>
      plugin.get('/api/scratch/:id', { schema: { response: REPLY }, config: ACCESS.public }, async () => ({})),
    );
    expect(result).toEqual({
      started: false,
      error: expect.stringContaining('GET /api/scratch/:id declares no params schema'),
    });
  });

  it('starts when both are declared, and answers through them', async () => {
    const result = await startWith((plugin) =>
      plugin.get(
        '/api/scratch/:id',
        {
          schema: { params: { type: 'object', properties: { id: { type: 'string' } } }, response: REPLY },
          config: ACCESS.public,
        },
        // A member the schema does not declare is not answered.
        async (request) => ({ id: (request.params as { id: string }).id, secret: 'kept in' }),
      ),
    );
    expect(result).toEqual({ started: true, status: 200, body: { id: 'd1' } });
  });
});
