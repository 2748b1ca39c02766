import type { RouteAccess } from '../accounts/route-rules.js';
import { tagOf } from './openapi-tags.js';

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

interface Operation {
  operationId?: string;
  tags?: string[];
  parameters?: { name: string; in: string }[];
  security?: Record<string, string[]>[];
  summary?: string;
  description?: string;
  responses?: Record<string, { description?: string }>;
  'x-waypost-access'?: RouteAccess;
}
type Document = { paths?: Record<string, Partial<Record<(typeof METHODS)[number], Operation>>> } & Record<
  string,
  unknown
>;

/**
 * A success answer whose schema gives no description of its own is the answer to what the
 * operation's summary says (Fastify's generator would write "Default Response"): a failure's is
 * always its codes (failures() in route-schema.ts).
 */
function describeSuccess(operation: Operation): void {
  for (const [status, answer] of Object.entries(operation.responses ?? {}))
    if (status.startsWith('2') && answer.description === 'Default Response' && operation.summary !== undefined)
      operation.responses![status] = { ...answer, description: operation.summary };
}

/** `get /api/devices/{id}/locations` as `getApiDevicesByIdLocations`: unique per method and path. */
export function operationIdOf(method: string, path: string): string {
  const words = path
    .split('/')
    .filter((part) => part !== '')
    .map((part) => (part === '{*}' ? 'file' : part.startsWith('{') ? `by-${part.slice(1, -1)}` : part))
    .flatMap((part) => part.split(/[^A-Za-z0-9]+/))
    .filter((word) => word !== '');
  // `/track/` is not `/track`: a path ending in a slash (the root among them) is its index.
  if (path.endsWith('/')) words.push('index');
  return method + words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join('');
}

/** A wildcard's parameter (`/assets/*`) as OpenAPI names it: a name clients can spell. */
const WILDCARD = 'path';

/** The OpenAPI path of a Fastify route's URL (`/api/devices/:id` -> `/api/devices/{id}`). */
const openApiPathOf = (url: string): string => url.replace(/:(\w+)/g, '{$1}').replace(/\*$/, `{${WILDCARD}}`);

/** An operation whose wildcard parameter is named `*` (as @fastify/swagger gives it), renamed. */
function namedWildcard(operation: Operation): Operation {
  if (!operation.parameters?.some((p) => p.in === 'path' && p.name === '*')) return operation;
  const parameters = operation.parameters.map((p) =>
    p.in === 'path' && p.name === '*' ? { ...p, name: WILDCARD } : p,
  );
  return { ...operation, parameters };
}

/**
 * The OpenAPI document made a client's contract (issue 40 item 7) from what the routes declare:
 * every operation gets an operationId, a route's declared access becomes its security requirement
 * (the admin token, a login token or a user's session; the role it needs named in its
 * description).
 */
export function withContracts<T extends object>(generated: T, access: Readonly<Record<string, RouteAccess>>): T {
  const document = structuredClone(generated) as Document;
  const declaredAccess = new Map(
    Object.entries(access).map(([route, declared]) => {
      const [method, url] = route.split(' ') as [string, string];
      return [`${method.toLowerCase()} ${openApiPathOf(url)}`, declared];
    }),
  );
  const paths: NonNullable<Document['paths']> = {};
  for (const [generatedPath, operations] of Object.entries(document.paths ?? {})) {
    const path = generatedPath.replace(/\{\*\}$/, `{${WILDCARD}}`);
    paths[path] = operations;
    for (const method of METHODS) {
      // Methods of one route share their operation object: each gets its own.
      const operation = operations[method] && namedWildcard({ ...operations[method] });
      if (!operation) continue;
      operations[method] = operation;
      operation.operationId = operationIdOf(method, generatedPath);
      operation.tags ??= [tagOf(method, path)];
      describeSuccess(operation);
      const declared = declaredAccess.get(`${method} ${path}`);
      if (declared === undefined) continue;
      operation['x-waypost-access'] = declared;
      if (declared === 'public') continue;
      operation.security = [{ adminToken: [] }, { session: [] }];
      const needs = `Needs the ${declared.role} role (the admin token passes every role).`;
      operation.description = operation.description ? `${operation.description}\n\n${needs}` : needs;
    }
  }
  return { ...document, paths } as T;
}
