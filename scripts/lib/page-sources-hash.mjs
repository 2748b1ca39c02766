// The hash of everything the dashboard's look is made of: the pages' TypeScript
// (packages/server/pages) and the served HTML, CSS and images (packages/server/public). The
// screenshot run records it in docs/screenshots.json; screenshots.test.ts recomputes it, so a
// change to any page source fails that test until `npm run screenshots` is run again. Hashed from
// the sources (not dist/), so the check needs no build and ignores build noise.
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The folders whose files make the pages, relative to the repository root. */
export const PAGE_SOURCES = ['packages/server/pages', 'packages/server/public'];

const filesUnder = (folder) =>
  readdirSync(folder)
    .flatMap((name) => {
      const path = join(folder, name);
      return statSync(path).isDirectory() ? filesUnder(path) : [path];
    })
    .sort();

/** sha256 over each page source's path and bytes, in path order (line endings as checked out). */
export function pageSourcesHash(root = ROOT) {
  const hash = createHash('sha256');
  for (const folder of PAGE_SOURCES) {
    for (const file of filesUnder(join(root, folder))) {
      hash.update(relative(root, file).split('\\').join('/') + '\0');
      hash.update(readFileSync(file));
      hash.update('\0');
    }
  }
  return hash.digest('hex');
}
