// The pages' API types come from the routes' own schemas (issue 42): with the types generated from a
// reply schema with one field renamed, the pages' type check fails where they read it.
import { readFileSync } from 'node:fs';
import openapiTS, { astToString } from 'openapi-typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { pagesTypeCheck, type PagesTypeCheck } from './helpers/pages-type-check.js';

const ROOT = new URL('../../../', import.meta.url);

/** The types build-pages.mjs generates from this OpenAPI document (arrayLength: a [lat, lon, t] point is a tuple). */
async function typesOf(document: object): Promise<string> {
  return astToString(await openapiTS(JSON.stringify(document), { arrayLength: true }));
}

describe("the pages' API types", () => {
  let check: PagesTypeCheck;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let document: any;
  beforeAll(() => {
    document = JSON.parse(readFileSync(new URL('docs/openapi.json', ROOT), 'utf8'));
    check = pagesTypeCheck();
  });

  it('pass the type check against the schemas as they are', async () => {
    expect(check.errors(await typesOf(document))).toBe('');
  }, 180_000);

  it("fail it where the page reads a field a route's reply schema no longer has", async () => {
    // GET /api/devices/{id}/key: the device panel reads createdAt; the changed schema calls it madeAt.
    const changed = structuredClone(document);
    const reply = changed.paths['/api/devices/{id}/key'].get.responses['200'].content['application/json'].schema;
    reply.properties.madeAt = reply.properties.createdAt;
    delete reply.properties.createdAt;
    reply.required = reply.required.map((name: string) => (name === 'createdAt' ? 'madeAt' : name));
    // Only the page that reads it is checked: the error is there whatever the other pages say.
    expect(check.errors(await typesOf(changed), ['dashboard/device/device-key.ts'])).toMatch(
      /dashboard\/device\/device-key\.ts\(\d+,\d+\): error TS\d+: .*createdAt/,
    );
  }, 180_000);

  it("fail it where the trips table reads a trip's distance the dashboard route no longer answers", async () => {
    // GET /api/dashboard/devices/{id}/trips: the trips table sums distanceM; the changed schema calls it metres.
    const changed = structuredClone(document);
    const reply =
      changed.paths['/api/dashboard/devices/{id}/trips'].get.responses['200'].content['application/json'].schema;
    const trip = reply.properties.trips.items;
    trip.properties.metres = trip.properties.distanceM;
    delete trip.properties.distanceM;
    trip.required = trip.required.map((name: string) => (name === 'distanceM' ? 'metres' : name));
    expect(check.errors(await typesOf(changed), ['dashboard/device/trips.ts'])).toMatch(
      /dashboard\/device\/trips\.ts\(\d+,\d+\): error TS\d+: .*distanceM/,
    );
  }, 180_000);
});
