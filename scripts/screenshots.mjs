// `npm run screenshots`: remakes every dashboard screenshot in docs/ from the running pages, so
// the docs cannot show an older page. Each view's script starts the BUILT server (startServer from
// packages/server/dist, the code `waypost server` runs) on port 0 with a temporary SQLite file, a
// fixed injected clock (lib/screenshot-clock.mjs) and a local synthetic street map (no network),
// feeds it fixed tracks, and photographs the dashboard in Debian's Chromium at 1440x900 and
// 390x844. Then docs/screenshots.json records the page sources' hash per PNG;
// packages/server/test/screenshots.test.ts fails when the pages change without a rerun.
import { spawn } from 'node:child_process';
import { statSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { PAGE_SOURCES, pageSourcesHash } from './lib/page-sources-hash.mjs';
import { SCREENSHOT_TIME } from './lib/screenshot-clock.mjs';

const ROOT = new URL('..', import.meta.url);

/** Each view's script and the PNGs it writes (the names the docs link to). */
export const VIEWS = [
  ['scripts/dashboard-screenshots.mjs', ['dashboard-fleet', 'dashboard-device']],
  ['scripts/geofence-editor-screenshots.mjs', ['dashboard-geofence-editor']],
];
const SIZES = ['1440x900', '390x844'];
/** A PNG in docs/ must stay small enough for the repository and a README page. */
const MAX_BYTES = 400 * 1024;
/** Each view's bound (about 70 s on an idle machine; more room for a loaded one): a stuck page fails the run. */
const VIEW_TIMEOUT_MS = 150_000;

const started = Date.now();
/** Runs one view's script in its own process: a crash or a timeout names the view and fails the run. */
const shoot = (script) =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [fileURLToPath(new URL(script, ROOT))], {
      stdio: 'inherit',
      timeout: VIEW_TIMEOUT_MS,
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code === 0) resolve(console.log(`${script}: ${Math.round((Date.now() - started) / 1000)} s`));
      else reject(new Error(`SCREENSHOT_VIEW_FAILED: ${script} exited ${signal ?? code}`));
    });
  });
// The views at once: most of each run is waiting for the map and the page to settle, not CPU.
await Promise.all(VIEWS.map(([script]) => shoot(script)));

const hash = pageSourcesHash();
const shots = {};
for (const [, views] of VIEWS) {
  for (const view of views) {
    for (const size of SIZES) {
      const file = `${view}-${size}.png`;
      const bytes = statSync(new URL(`docs/${file}`, ROOT)).size;
      if (bytes > MAX_BYTES)
        throw new Error(`SCREENSHOT_TOO_LARGE: docs/${file} is ${bytes} bytes (over ${MAX_BYTES})`);
      shots[file] = { pageSources: hash };
    }
  }
}
const manifestFile = fileURLToPath(new URL('docs/screenshots.json', ROOT));
const manifest = {
  comment:
    'Written by `npm run screenshots`; packages/server/test/screenshots.test.ts compares pageSources with the current sources.',
  sources: PAGE_SOURCES,
  clock: new Date(SCREENSHOT_TIME).toISOString(),
  shots,
};
// In prettier's layout, so `npm run format:check` passes on the file as written.
writeFileSync(
  manifestFile,
  await format(JSON.stringify(manifest), { ...(await resolveConfig(manifestFile)), filepath: manifestFile }),
);
console.log(
  `docs/screenshots.json written (${Object.keys(shots).length} PNGs) in ${Math.round((Date.now() - started) / 1000)} s`,
);
