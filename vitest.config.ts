import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (pkg: string) => fileURLToPath(new URL(`./packages/${pkg}/src/index.ts`, import.meta.url));

/**
 * The tests that build hosts of their own (network namespaces, a PostgreSQL and a NATS cluster,
 * HAProxy, several servers): they load both cores for half a minute each, so they run after the
 * rest of the suite, one at a time, and never beside a browser test whose page then waits on a
 * starved machine.
 */
const HOSTS = [
  'packages/server/test/deploy/deployment.test.ts',
  'packages/server/test/deploy/drain.test.ts',
  // Three servers and HAProxy, and a pace compared with itself: alone, not beside a browser.
  'packages/server/test/fleet-stuck-host.test.ts',
  // A PostgreSQL primary, its standby and two server processes in turn (issue 46's failover).
  'packages/cli/test/receipts-failover.test.ts',
];

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
    // Fails the run when a test leaves a process running or a temporary file behind (and lists them).
    globalSetup: ['./scripts/test-leftovers/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Suites that open PostgreSQL or Chromium hold real resources: keep parallelism modest.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: { name: 'suite', include: ['packages/*/test/**/*.test.ts'], exclude: HOSTS },
      },
      {
        extends: true,
        test: { name: 'hosts', include: HOSTS, fileParallelism: false, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
