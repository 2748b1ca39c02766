// The docs' dashboard screenshots cannot fall behind the pages (issue 42): `npm run screenshots`
// records the page sources' hash in docs/screenshots.json, and this test recomputes it, so a
// change to the pages' TypeScript, HTML or CSS fails here until the PNGs are remade. No pixels are
// compared (fonts and tiles differ between machines); the hash says whether a rerun is owed.
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const DOCS = join(ROOT, 'docs');

type HashModule = { PAGE_SOURCES: string[]; pageSourcesHash: (root?: string) => string };
const hashModule = async () =>
  (await import(pathToFileURL(join(ROOT, 'scripts/lib/page-sources-hash.mjs')).href)) as HashModule;

type Manifest = { shots: Record<string, { pageSources: string }> };
const manifest = () => JSON.parse(readFileSync(join(DOCS, 'screenshots.json'), 'utf8')) as Manifest;

/** Every image README.md and docs/*.md show from docs/ (markdown ![..](..) and <img src>), as names in docs/. */
function referencedPngs(): string[] {
  const pages = [
    ['README.md', 'docs/'],
    ...readdirSync(DOCS)
      .filter((name) => name.endsWith('.md'))
      .map((name) => [`docs/${name}`, '']),
  ];
  const names = new Set<string>();
  for (const [page, prefix] of pages) {
    const text = readFileSync(join(ROOT, page!), 'utf8');
    for (const match of text.matchAll(/(?:\]\(|src=")([^)"\s]+\.png)/g)) {
      const link = match[1]!;
      if (/^https?:/.test(link)) continue;
      names.add(prefix && link.startsWith(prefix) ? link.slice(prefix.length) : link);
    }
  }
  return [...names].sort();
}

describe('the docs screenshots', () => {
  it('were made from the current page sources (else: run npm run screenshots)', async () => {
    const { pageSourcesHash } = await hashModule();
    const current = pageSourcesHash();
    const stale = Object.entries(manifest().shots)
      .filter(([, shot]) => shot.pageSources !== current)
      .map(([file]) => file);
    expect(stale, 'the pages changed since these PNGs were made: run `npm run screenshots` and commit docs/').toEqual(
      [],
    );
  });

  it('fall behind when any page source changes: a CSS rule, a page module', async () => {
    const { PAGE_SOURCES, pageSourcesHash } = await hashModule();
    const copy = mkdtempSync(join(tmpdir(), 'waypost-page-hash-'));
    try {
      for (const folder of PAGE_SOURCES) cpSync(join(ROOT, folder), join(copy, folder), { recursive: true });
      const before = pageSourcesHash(copy);
      expect(before).toBe(pageSourcesHash());
      const css = join(copy, 'packages/server/public/assets/layout.css');
      writeFileSync(css, readFileSync(css, 'utf8') + '\n#map { filter: none; }\n');
      const afterCss = pageSourcesHash(copy);
      expect(afterCss).not.toBe(before);
      writeFileSync(join(copy, 'packages/server/pages/dashboard/new-part.ts'), 'export {};\n');
      expect(pageSourcesHash(copy)).not.toBe(afterCss);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });

  it('are every PNG the README and docs show, each present, listed and under 400 KB', () => {
    const shown = referencedPngs();
    const listed = Object.keys(manifest().shots).sort();
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.filter((name) => !existsSync(join(DOCS, name)))).toEqual([]);
    expect(shown.filter((name) => !listed.includes(name))).toEqual([]);
    expect(listed.filter((name) => !existsSync(join(DOCS, name)))).toEqual([]);
    expect(listed.filter((name) => statSync(join(DOCS, name)).size > 400 * 1024)).toEqual([]);
  });
});
