import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const src = (pkg: string) => fileURLToPath(new URL(`./packages/${pkg}/src/index.ts`, import.meta.url));
const ROOT = fileURLToPath(new URL('.', import.meta.url));

/**
 * The tests that build hosts of their own (network namespaces, a PostgreSQL and a NATS cluster,
 * HAProxy, several servers) run one after another in one file, hosts.test.ts (which says why). It is
 * ranked after the page tests and the slow dozen, so one worker holds it while the other runs the
 * fast tier: alone at the end they left one worker idle and both cores 70% idle for a minute.
 */
const HOSTS = 'packages/server/test/hosts.test.ts';

/**
 * The suite in tiers, sorted by what a file's source uses (so a new test lands in its tier without
 * a list to keep): `npm test` runs them all, `npm run test:fast` only "fast".
 * - pages: drives Chromium (launchChromium); these share one Chromium per run (chromium-server.ts).
 * - processes: starts real processes or talks to daemons other than PostgreSQL (the CLI's binary,
 *   server processes, gpsd, the brokers, xmllint/gpsbabel/promtool, the README's examples).
 * - slow: in-process, but slow (SLOW_IN_PROCESS, below).
 * - fast: the rest, in-process (Fastify's inject or a listener on port 0, SQLite and PostgreSQL,
 *   pure tables).
 */
const PAGES = /launchChromium/;
const PROCESSES =
  /node:child_process|support\/run-cli|agent-process|gpsfake|readme-world|spawn-server|server-processes|deploy\/(netns|services)|1883|4222/;
/**
 * In-process, but the slowest of them (over 25 s each in a loaded run of the fast tier, 45% of its
 * time: scrypt at its real cost for every account, walks of every route, a month of uploads):
 * `npm test` runs them ("slow"), the fast tier does not.
 */
const SLOW_IN_PROCESS = [
  'packages/server/test/track-tiles.test.ts',
  'packages/server/test/trackers-month.test.ts',
  'packages/server/test/accounts-routes.test.ts',
  'packages/server/test/accounts-list-scope.test.ts',
  'packages/server/test/audit-allow-list.test.ts',
  'packages/server/test/security-accounts.test.ts',
  'packages/server/test/accounts.test.ts',
  'packages/server/test/device-presence.test.ts',
  'packages/server/test/accounts-name-case.test.ts',
  'packages/server/test/fleet-webhooks.test.ts',
  'packages/server/test/security-escalation.test.ts',
  'packages/server/test/live-replay-scope.test.ts',
];

const ALL = readdirSync(`${ROOT}packages`)
  .flatMap((pkg) =>
    readdirSync(`${ROOT}packages/${pkg}/test`, { recursive: true, encoding: 'utf8' }).map(
      (file) => `packages/${pkg}/test/${file.split('\\').join('/')}`,
    ),
  )
  .filter((file) => file.endsWith('.test.ts') && file !== HOSTS)
  .sort();
const source = (file: string) => readFileSync(`${ROOT}${file}`, 'utf8');
const tiers = { pages: [] as string[], processes: [] as string[], slow: [] as string[], fast: [] as string[] };
for (const file of ALL) {
  const text = source(file);
  if (PAGES.test(text)) tiers.pages.push(file);
  else if (PROCESSES.test(text)) tiers.processes.push(file);
  else if (SLOW_IN_PROCESS.includes(file)) tiers.slow.push(file);
  else tiers.fast.push(file);
}

/**
 * Longest first, so that the run does not end on one worker finishing a long file while the other
 * idles: the page tests, the process tests, the slow in-process ones, the hosts, then the fast
 * tier's short files, which fill the other worker while the hosts run (vitest's own order is by
 * project name, and on a clean clone, with no timings cached, by file size within it).
 */
const TIER_ORDER = ['pages', 'processes', 'slow', 'hosts', 'fast'];
class TiersFirstSlowest extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (spec: TestSpecification) => {
      const at = TIER_ORDER.indexOf(spec.project.name);
      return at === -1 ? TIER_ORDER.length : at;
    };
    // Array.prototype.sort is stable: vitest's order holds within a tier.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
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
      {
        find: /^@waypost\/server\/check-options$/,
        replacement: fileURLToPath(new URL('./packages/server/src/check-options.ts', import.meta.url)),
      },
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
    // global state, and each file builds its own servers and databases. Every tier but the hosts
    // shares its workers (three whole runs passed so; the page and process tiers took 345 s
    // instead of about 400 s).
    isolate: false,
    sequence: { sequencer: TiersFirstSlowest },
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
      { extends: true, test: { name: 'slow', include: tiers.slow } },
      { extends: true, test: { name: 'fast', include: tiers.fast } },
      // A fresh worker: the one file that starts hosts of its own.
      { extends: true, test: { name: 'hosts', include: [HOSTS], isolate: true } },
    ],
  },
});
