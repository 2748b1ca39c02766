// A page's entry module names its whole static import graph (issue 42). The browser learns a
// module's imports only once that module has arrived, so a graph seven modules deep costs seven
// round trips before the page runs; listing every module the entry reaches as a bare import lets the
// browser ask for all of them as soon as the entry arrives (what <link rel="modulepreload"> would
// do, kept with the build so the list cannot go stale). Evaluation order is unchanged: the added
// imports come after the entry's own, whose evaluation has already run every one of them, and
// imports are hoisted wherever they stand, so they go at the end (the source map's lines stay).
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

/** The entry modules a page's <script type="module"> loads (public/index.html, public/share/). */
export const PAGE_ENTRIES = ['app.js', 'share.js'];

/**
 * Appends `import "./x.js";` for every module the entry reaches through static imports of its own
 * folder that it does not import itself. `metafile` is esbuild's for the build that wrote `outdir`.
 */
export function requestWholeGraph(outdir, metafile, entry) {
  const importsOf = new Map();
  for (const [path, output] of Object.entries(metafile.outputs)) {
    if (!path.endsWith('.js')) continue;
    const local = output.imports.filter((i) => i.kind === 'import-statement' && /^\.\/[\w-]+\.js$/.test(i.path));
    importsOf.set(
      basename(path),
      local.map((i) => i.path.slice(2)),
    );
  }
  if (!importsOf.has(entry)) return;
  const direct = new Set(importsOf.get(entry));
  const reached = new Set();
  const visit = (name) => {
    for (const next of importsOf.get(name) ?? [])
      if (next !== entry && !reached.has(next)) {
        reached.add(next);
        visit(next);
      }
  };
  visit(entry);
  const added = [...reached].filter((name) => !direct.has(name)).sort();
  if (added.length === 0) return;
  const file = join(outdir, entry);
  const text = readFileSync(file, 'utf8');
  const map = /\n\/\/# sourceMappingURL=[^\n]*\n?$/.exec(text);
  const at = map ? map.index : text.length;
  const lines = added.map((name) => `import "./${name}";`).join('\n');
  writeFileSync(
    file,
    `${text.slice(0, at)}\n// The whole graph at once (build-pages-graph.mjs):\n${lines}${text.slice(at)}`,
  );
}
