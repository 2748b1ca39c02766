// Bundles @waypost/browser (the SDK core, idb and the browser adapters) into one ESM file with no
// imports left, for pages and module service workers alike. Declarations come from tsc -b.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));

await build({
  entryPoints: [here('./src/index.ts')],
  outfile: here('./dist/waypost-browser.js'),
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: ['chrome111', 'firefox111', 'safari16.4'],
  sourcemap: true,
  minify: false,
  // The core is taken from source so the bundle never depends on a stale dist of @waypost/sdk.
  plugins: [
    {
      name: 'waypost-sdk-source',
      setup(bundler) {
        const entries = {
          '@waypost/sdk': '../sdk/src/index.ts',
          '@waypost/sdk/internal': '../sdk/src/internal.ts',
          '@waypost/sdk/testing': '../sdk/src/testing/index.ts',
        };
        bundler.onResolve({ filter: /^@waypost\/sdk(\/internal|\/testing)?$/ }, (args) => ({
          path: here(entries[args.path]),
        }));
      },
    },
  ],
  logLevel: 'warning',
});
