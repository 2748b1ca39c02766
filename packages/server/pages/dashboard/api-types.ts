// The API's shapes for the pages, derived from the types openapi-typescript generates from the
// routes' own JSON schemas (build-pages.mjs writes dist/pages/openapi.d.ts): a route whose reply
// schema changes fails the pages' type check where they read the field. Nothing here is written by hand.
import type { paths } from '../../dist/pages/openapi.js';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

type JsonOf<Response> = Response extends { content: { 'application/json': infer Body } } ? Body : never;

/** The JSON a route answers on success (its 200, else its 201), as its schema declares it. */
export type Reply<Route extends keyof paths, M extends Method = 'get'> = paths[Route][M] extends {
  responses: infer Responses;
}
  ? Responses extends { 200: infer Ok }
    ? JsonOf<Ok>
    : Responses extends { 201: infer Created }
      ? JsonOf<Created>
      : never
  : never;

/** The JSON body a route takes, as its schema declares it. */
export type RequestBody<Route extends keyof paths, M extends Method> = paths[Route][M] extends {
  requestBody?: { content: { 'application/json': infer Body } };
}
  ? Body
  : never;

/** The routes that declare a JSON reply for this method: the only ones the typed calls accept. */
export type SchemaRoute<M extends Method = 'get'> = {
  [Route in keyof paths]: [Reply<Route, M>] extends [never] ? never : Route;
}[keyof paths];

/** The names in a route's template: '/api/devices/{id}/key' has 'id'. */
export type PathParamName<Route extends string> = Route extends `${string}{${infer Name}}${infer Rest}`
  ? Name | PathParamName<Rest>
  : never;
