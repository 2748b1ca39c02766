// The pages' API types come from the routes' own schemas (issue 42): in a scratch copy of the page
// code, a reply schema with one field renamed makes the pages' type check fail where they read it.
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = new URL('../../../', import.meta.url);
const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');

/** The pages' type check in the scratch copy, with types generated from this OpenAPI document. */
async function typeCheckAgainst(scratch: string, document: object): Promise<{ ok: boolean; output: string }> {
  const types = join(scratch, 'packages/server/dist/pages/openapi.d.ts');
  // The options build-pages.mjs generates with (arrayLength: a [lat, lon, t] point is a tuple).
  writeFileSync(types, astToString(await openapiTS(JSON.stringify(document), { arrayLength: true })));
  try {
    await promisify(execFile)(process.execPath, [TSC, '-p', join(scratch, 'packages/server/pages/tsconfig.json')]);
    return { ok: true, output: '' };
  } catch (error) {
    return { ok: false, output: String((error as { stdout?: string }).stdout) };
  }
}

describe("the pages' API types", () => {
  let scratch: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let document: any;
  beforeAll(() => {
    document = JSON.parse(readFileSync(new URL('docs/openapi.json', ROOT), 'utf8'));
    scratch = mkdtempSync(join(tmpdir(), 'waypost-pages-types-'));
    cpSync(new URL('tsconfig.base.json', ROOT), join(scratch, 'tsconfig.base.json'));
    cpSync(new URL('packages/server/pages', ROOT), join(scratch, 'packages/server/pages'), { recursive: true });
    cpSync(new URL('packages/server/public/assets', ROOT), join(scratch, 'packages/server/public/assets'), {
      recursive: true,
    });
    mkdirSync(join(scratch, 'packages/server/dist/pages'), { recursive: true });
    // The type packages the pages use (Leaflet's), as installed.
    symlinkSync(fileURLToPath(new URL('node_modules', ROOT)), join(scratch, 'node_modules'));
  });
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('pass the type check against the schemas as they are', async () => {
    expect(await typeCheckAgainst(scratch, document)).toEqual({ ok: true, output: '' });
  }, 180_000);

  it("fail it where the page reads a field a route's reply schema no longer has", async () => {
    // GET /api/devices/{id}/key: the device panel reads createdAt; the scratch schema calls it madeAt.
    const reply = document.paths['/api/devices/{id}/key'].get.responses['200'].content['application/json'].schema;
    reply.properties.madeAt = reply.properties.createdAt;
    delete reply.properties.createdAt;
    reply.required = reply.required.map((name: string) => (name === 'createdAt' ? 'madeAt' : name));
    const { ok, output } = await typeCheckAgainst(scratch, document);
    expect(ok).toBe(false);
    expect(output).toMatch(/dashboard\/device\/device-key\.ts\(\d+,\d+\): error TS\d+: .*createdAt/);
  }, 180_000);

  it("fail it where the trips table reads a trip's distance the dashboard route no longer answers", async () => {
    // GET /api/dashboard/devices/{id}/trips: the trips table sums distanceM; the scratch schema calls it metres.
    const changed = structuredClone(document);
    const reply =
      changed.paths['/api/dashboard/devices/{id}/trips'].get.responses['200'].content['application/json'].schema;
    const trip = reply.properties.trips.items;
    trip.properties.metres = trip.properties.distanceM;
    delete trip.properties.distanceM;
    trip.required = trip.required.map((name: string) => (name === 'distanceM' ? 'metres' : name));
    const { ok, output } = await typeCheckAgainst(scratch, changed);
    expect(ok).toBe(false);
    expect(output).toMatch(/dashboard\/device\/trips\.ts\(\d+,\d+\): error TS\d+: .*distanceM/);
  }, 180_000);
});
