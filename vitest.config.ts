import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (pkg: string) => fileURLToPath(new URL(`./packages/${pkg}/src/index.ts`, import.meta.url));

export default defineConfig({
  resolve: {
    alias: {
      '@waypost/sdk': src('sdk'),
      '@waypost/node': src('node'),
      '@waypost/server': src('server'),
    },
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
