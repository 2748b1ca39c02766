import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered on the app, as "METHOD /path" (HEAD and OPTIONS left out). */
    waypostRoutes: string[];
  }
}

/** Collects the app's routes as they are registered, so a test can walk them (the role rules' test). */
export function collectRoutes(app: FastifyInstance): void {
  const list: string[] = [];
  app.decorate('waypostRoutes', list);
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD' || method === 'OPTIONS') continue;
      const key = `${method} ${route.url}`;
      if (!list.includes(key)) list.push(key);
    }
  });
}
