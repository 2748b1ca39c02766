// `npm run screenshots`: remakes every dashboard screenshot in docs/ from the running pages, so
// the docs cannot show an older page. Each view's script starts the BUILT server (startServer from
// packages/server/dist, the code `waypost server` runs) on port 0 with a temporary SQLite file, a
// fixed injected clock (lib/screenshot-clock.mjs) and a local synthetic street map (no network),
// feeds it fixed tracks, and photographs the dashboard in Debian's Chromium at 1440x900 and
// 390x844. Then docs/screenshots.json records the page sources' hash per PNG;
// packages/server/test/screenshots.test.ts fails when the pages change without a rerun.
import { execFileSync } from 'node:child_process';
import { statSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
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
/** The whole run's bound: a stuck page fails the run instead of hanging the lead's merge. */
const VIEW_TIMEOUT_MS = 90_000;

const started = Date.now();
for (const [script] of VIEWS) {
  // Its own process per view: a crash or a timeout names the view, and exits non-zero.
  execFileSync(process.execPath, [fileURLToPath(new URL(script, ROOT))], {
    stdio: 'inherit',
    timeout: VIEW_TIMEOUT_MS,
  });
}

const hash = pageSourcesHash();
const shots = {};
for (const [, views] of VIEWS) {
  for (const view of views) {
    for (const size of SIZES) {
      const file = `${view}-${size}.png`;
      const bytes = statSync(new URL(`docs/${file}`, ROOT)).size;
      if (bytes > MAX_BYTES) throw new Error(`SCREENSHOT_TOO_LARGE: docs/${file} is ${bytes} bytes (over ${MAX_BYTES})`);
      shots[file] = { pageSources: hash };
    }
  }
}
writeFileSync(
  new URL('docs/screenshots.json', ROOT),
  JSON.stringify(
    {
      comment: 'Written by `npm run screenshots`; packages/server/test/screenshots.test.ts compares pageSources with the current sources.',
      sources: PAGE_SOURCES,
      clock: new Date(SCREENSHOT_TIME).toISOString(),
      shots,
    },
    null,
    2,
  ) + '\n',
);
console.log(`docs/screenshots.json written (${Object.keys(shots).length} PNGs) in ${Math.round((Date.now() - started) / 1000)} s`);
