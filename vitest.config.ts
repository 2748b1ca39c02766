import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (pkg: string) => fileURLToPath(new URL(`./packages/${pkg}/src/index.ts`, import.meta.url));

export default defineConfig({
  resolve: {
    // Exact names: '@waypost/sdk' must not also catch '@waypost/sdk/internal'.
    alias: [
      { find: /^@waypost\/sdk$/, replacement: src('sdk') },
      {
        find: /^@waypost\/sdk\/internal$/,
        replacement: fileURLToPath(new URL('./packages/sdk/src/internal.ts', import.meta.url)),
      },
      {
        find: /^@waypost\/sdk\/testing$/,
        replacement: fileURLToPath(new URL('./packages/sdk/src/testing/index.ts', import.meta.url)),
      },
      { find: /^@waypost\/node$/, replacement: src('node') },
      { find: /^@waypost\/server$/, replacement: src('server') },
    ],
  },
  test: {
    include: ['packages/*/test/**/*.test.ts'],
    // Fails the run when a test leaves a process running or a temporary file behind (and lists them).
    globalSetup: ['./scripts/test-leftovers/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Suites that open PostgreSQL or Chromium hold real resources: keep parallelism modest.
    maxWorkers: 2,
  },
});
