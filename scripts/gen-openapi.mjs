// Writes docs/openapi.json: the OpenAPI document a default server serves at /openapi.json, generated
// from the routes' own schemas (run after `npm run build`; `npm run docs` does both). The test suite
// fails when the committed file differs from what the server generates (openapi.test.ts).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '@waypost/server';

const dir = mkdtempSync(join(tmpdir(), 'waypost-openapi-'));
try {
  const server = await startServer({ port: 0, database: join(dir, 'server.db'), adminToken: 'openapi-generation' });
  try {
    const document = await (await fetch(`${server.url}/openapi.json`)).json();
    writeFileSync('docs/openapi.json', `${JSON.stringify(document, null, 2)}\n`);
    console.log(`docs/openapi.json regenerated (${Object.keys(document.paths).length} paths)`);
  } finally {
    await server.close();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
