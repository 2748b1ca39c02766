// Issue 44: a route declares who may call it in its own options (config.access); a route that
// declares nothing stops the server from starting, so no route is ever open or shut by omission.
import { describe, expect, it } from 'vitest';
import { needs } from '../src/accounts/route-rules.js';
import { buildApp } from '../src/app.js';
import { declarePublicFamily } from '../src/http/route-access-check.js';

const options = { database: ':memory:', adminToken: 'a'.repeat(32), mapStyle: null };

describe('a route without an access declaration', () => {
  it('stops the server from starting, naming the route', async () => {
    const app = await buildApp(options);
    try {
      const starting = async () => {
        await app.register(async (plugin) => {
          plugin.get('/api/forgotten', async () => ({ open: true }));
        });
        await app.ready();
      };
      await expect(starting()).rejects.toThrow('GET /api/forgotten declares no access');
    } finally {
      await app.close();
    }
  });

  it('starts when declared, and a family declared public covers only its own plugin', async () => {
    const app = await buildApp(options);
    try {
      await app.register(async (plugin) => {
        plugin.get(
          '/api/declared',
          { schema: { response: { 200: { type: 'object' } } }, config: { access: needs('viewer', 'filtered') } },
          async () => ({}),
        );
      });
      await app.register(async (plugin) => {
        declarePublicFamily(plugin, 'a test family of files');
        plugin.get('/public-file', { schema: { response: { 200: { type: 'string' } } } }, async () => 'file');
      });
      await app.ready();
      expect(app.routeAccess['GET /api/declared']).toEqual({ role: 'viewer', scope: 'filtered' });
      expect(app.routeAccess['GET /public-file']).toBe('public');
      const sibling = await buildApp(options);
      try {
        const starting = async () => {
          await sibling.register(async (plugin) => {
            await plugin.register(async (family) => declarePublicFamily(family, 'files'));
            plugin.get('/api/next-to-a-public-family', async () => ({}));
          });
          await sibling.ready();
        };
        await expect(starting()).rejects.toThrow('GET /api/next-to-a-public-family declares no access');
      } finally {
        await sibling.close();
      }
    } finally {
      await app.close();
    }
  });
});
