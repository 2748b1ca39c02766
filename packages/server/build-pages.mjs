// Compiles the pages' TypeScript (pages/) into the files the server serves: pages/dashboard/*.ts
// becomes /assets/*.js and pages/track/*.ts becomes /track/*.js, one module per file, so every URL
// and import path the pages already use stays as it is. Type checking is tsc's job (npm run
// typecheck, pages/tsconfig.json); esbuild only strips types and writes source maps.
import { build } from 'esbuild';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));

/** Source folder under pages/ and the output folder under dist/pages/ (the URL path it is served at). */
const FOLDERS = [
  ['pages/dashboard', 'dist/pages/assets'],
  ['pages/track', 'dist/pages/track'],
];

for (const [source, out] of FOLDERS) {
  const entryPoints = readdirSync(here(source))
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts'))
    .map((name) => here(`${source}/${name}`));
  if (entryPoints.length === 0) continue;
  await build({
    entryPoints,
    outdir: here(out),
    bundle: false,
    format: 'esm',
    platform: 'browser',
    target: ['chrome111', 'firefox111', 'safari16.4'],
    sourcemap: true,
    logLevel: 'warning',
  });
}
