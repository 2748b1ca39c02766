import { expect } from 'vitest';
import type { BackgroundGeolocation } from '../../src/index.js';
import { at } from '../../src/testing/index.js';

/**
 * close()'s promise about automatic uploads, on any store and transport: none starts after close()
 * has resolved. Runs on the test kit (packages/sdk/test/lifecycle.test.ts) and on SQLite over a
 * socket (packages/node/test/lifecycle.test.ts). `bg` is readied with the server's url, not started.
 */
export async function checkNoUploadAfterClose({
  bg,
  server,
}: {
  bg: BackgroundGeolocation;
  server: { readonly requests: readonly unknown[] };
}): Promise<void> {
  await bg.start();
  await bg.store.insertLocation(at(0));
  await bg.close();
  const seenAtClose = server.requests.length;
  await bg.idle();
  expect(server.requests).toHaveLength(seenAtClose);
}
