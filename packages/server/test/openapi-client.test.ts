// Issue 40 item 7: the OpenAPI document drives a client. Types generated from the served
// /openapi.json (openapi-typescript) type-check a client written against them alone (openapi-fetch,
// test/contract/waypost-client.ts), and a schema that drops what the client reads fails that check;
// the same client registers a device, uploads as it with its token and with a device key, lists
// the operator's devices, and pages its GPX export on a real server.
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUploadRead } from './contract/waypost-client.js';
import { backends } from './helpers/backends.js';
import { startTestServer, type TestServer } from './helpers/client.js';

const ROOT = new URL('../../../', import.meta.url);
const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const CLIENT = new URL('contract/waypost-client.ts', import.meta.url);

/** The client's type check in a scratch folder, against types generated from `document`. */
async function typeCheckAgainst(scratch: string, document: object): Promise<{ ok: boolean; output: string }> {
  writeFileSync(join(scratch, 'openapi-types.ts'), astToString(await openapiTS(JSON.stringify(document))));
  try {
    await promisify(execFile)(process.execPath, [TSC, '-p', join(scratch, 'tsconfig.json')]);
    return { ok: true, output: '' };
  } catch (error) {
    return { ok: false, output: String((error as { stdout?: string }).stdout) };
  }
}

describe('a client generated from the OpenAPI document', () => {
  let server: TestServer;
  let scratch: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let document: any;
  beforeAll(async () => {
    server = await startTestServer(backends[0]!);
    document = await (await fetch(`${server.url}/openapi.json`)).json();
    scratch = mkdtempSync(join(tmpdir(), 'waypost-openapi-client-'));
    cpSync(CLIENT, join(scratch, 'waypost-client.ts'));
    writeFileSync(
      join(scratch, 'tsconfig.json'),
      JSON.stringify({
        extends: fileURLToPath(new URL('tsconfig.base.json', ROOT)),
        compilerOptions: { noEmit: true, composite: false, types: ['node'], lib: ['ES2022'] },
        files: ['waypost-client.ts'],
      }),
    );
    writeFileSync(join(scratch, 'package.json'), JSON.stringify({ type: 'module' }));
    // openapi-fetch and Node's types, as installed.
    symlinkSync(fileURLToPath(new URL('node_modules', ROOT)), join(scratch, 'node_modules'));
  });
  afterAll(async () => {
    rmSync(scratch, { recursive: true, force: true });
    await server.stop();
  });

  it('type-checks against the served document', async () => {
    expect(await typeCheckAgainst(scratch, document)).toEqual({ ok: true, output: '' });
  }, 120_000);

  it("fails the type check where the client reads a member a route's schema no longer declares", async () => {
    const changed = structuredClone(document);
    const reply = changed.paths['/auth/register'].post.responses['200'].content['application/json'].schema;
    reply.properties.device = reply.properties.deviceId;
    delete reply.properties.deviceId;
    reply.required = reply.required.map((name: string) => (name === 'deviceId' ? 'device' : name));
    const result = await typeCheckAgainst(scratch, changed);
    expect(result.ok).toBe(false);
    expect(result.output).toMatch(/waypost-client\.ts\(\d+,\d+\): error TS\d+: Property 'deviceId' does not exist/);
  }, 120_000);
});

describe.each(backends)('the generated client on a real server, on $name', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend);
  });
  afterAll(async () => server.stop());

  it('registers a device, uploads as it with its token and its key, lists devices and pages its GPX export through the typed client', async () => {
    const run = await registerUploadRead(server.url, server.adminToken, 'typed-client-1');
    expect(run).toMatchObject({ deviceId: 'typed-client-1', stored: 2, duplicates: 0, storedWithKey: 1 });
    expect(run.listedRecords).toBe(3);
    expect(run.expires).toBeGreaterThan(Date.now() / 1000);
    expect(run.link).toMatch(/rel="next"/);
    // One record a page, oldest first, then an empty last page or none: both records, once each.
    const points = run.pages.flatMap((gpx) => [...gpx.matchAll(/<trkpt lat="([\d.-]+)"/g)].map((m) => m[1]));
    expect(points).toEqual(['45.501', '45.502', '45.503']);
  });
});
