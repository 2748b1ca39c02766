import type { RouteRule } from '../../src/accounts/route-rules.js';
import { buildApp } from '../../src/app.js';

/**
 * The role rules the routes declare (config.access), by "METHOD /path": what the scope tests walk.
 * Which role each route should need is not taken from here but from the role test's own table
 * (route-roles.test.ts); these tests check the scope and the refusals the declarations lead to.
 */
export async function declaredRules(): Promise<Record<string, RouteRule>> {
  const app = await buildApp({ database: ':memory:', adminToken: 'a'.repeat(32), mapStyle: null });
  try {
    await app.ready();
    const rules: Record<string, RouteRule> = {};
    for (const [route, access] of Object.entries(app.routeAccess)) if (access !== 'public') rules[route] = access;
    return rules;
  } finally {
    await app.close();
  }
}
