import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (pkg: string) => fileURLToPath(new URL(`./packages/${pkg}/src/index.ts`, import.meta.url));
const ROOT = fileURLToPath(new URL('.', import.meta.url));

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
];

/**
 * The suite in tiers, sorted by what a file's source uses (so a new test lands in its tier without
 * a list to keep): `npm test` runs them all, `npm run test:fast` only "fast".
 * - pages: drives Chromium (launchChromium); these share one Chromium per run (chromium-server.ts).
 * - processes: starts real processes or talks to daemons other than PostgreSQL (the CLI's binary,
 *   server processes, gpsd, the brokers, xmllint/gpsbabel/promtool, the README's examples).
 * - fast: the rest, in-process (Fastify's inject or a listener on port 0, SQLite and PostgreSQL,
 *   pure tables), except the few listed in SLOW_IN_PROCESS.
 */
const PAGES = /launchChromium/;
const PROCESSES =
  /node:child_process|support\/run-cli|agent-process|gpsfake|readme-world|spawn-server|server-processes|deploy\/(netns|services)|1883|4222/;
/** In-process, but each takes over ten seconds of both cores (measured): whole-suite only. */
const SLOW_IN_PROCESS: string[] = [];

// packages/*/test/**/*.test.ts (Node 20 has no fs.globSync).
const ALL = readdirSync(`${ROOT}packages`)
  .flatMap((pkg) =>
    readdirSync(`${ROOT}packages/${pkg}/test`, { recursive: true, encoding: 'utf8' }).map(
      (file) => `packages/${pkg}/test/${file.split('\\').join('/')}`,
    ),
  )
  .filter((file) => file.endsWith('.test.ts') && !HOSTS.includes(file))
  .sort();
const source = (file: string) => readFileSync(`${ROOT}${file}`, 'utf8');
const tiers = { pages: [] as string[], processes: [] as string[], fast: [] as string[] };
for (const file of ALL) {
  const text = source(file);
  if (PAGES.test(text)) tiers.pages.push(file);
  else if (PROCESSES.test(text) || SLOW_IN_PROCESS.includes(file)) tiers.processes.push(file);
  else tiers.fast.push(file);
}

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
    // A worker runs file after file with the modules it already loaded (the server, Fastify, the
    // drivers: about 3 s a file when every file had a fresh worker). No test mocks modules or keeps
    // global state, and each file builds its own servers and databases.
    isolate: false,
    projects: [
      {
        extends: true,
        test: {
          name: 'pages',
          include: tiers.pages,
          globalSetup: ['./packages/browser/test/support/chromium-server.ts'],
        },
      },
      { extends: true, test: { name: 'processes', include: tiers.processes } },
      { extends: true, test: { name: 'fast', include: tiers.fast } },
      {
        extends: true,
        test: { name: 'hosts', include: HOSTS, fileParallelism: false, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
