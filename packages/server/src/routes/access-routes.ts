import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../context.js';
import { groupRoutes } from './groups.js';
import { oidcRoutes } from './oidc.js';

/** Who may see what (issue 33): device groups, and single sign-on when it is configured. */
export const accessRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  await app.register(groupRoutes, { ctx });
  await app.register(oidcRoutes, { ctx });
};
