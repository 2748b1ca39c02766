import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** The in-page harness (test/page/harness.ts) bundled with the sources it tests. */
export async function bundleHarness(): Promise<string> {
  const result = await build({
    entryPoints: [here('../page/harness.ts')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    // The core from source, each of its entries ('@waypost/sdk', '/internal' and '/testing').
    plugins: [
      {
        name: 'waypost-sdk-source',
        setup(bundler) {
          const entries: Record<string, string> = {
            '@waypost/sdk': 'index.ts',
            '@waypost/sdk/internal': 'internal.ts',
            '@waypost/sdk/testing': 'testing/index.ts',
          };
          bundler.onResolve({ filter: /^@waypost\/sdk(\/internal|\/testing)?$/ }, (args) => ({
            path: here(`../../../sdk/src/${entries[args.path]}`),
          }));
        },
      },
    ],
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

export interface HarnessServer {
  url: string;
  close(): Promise<void>;
}

/**
 * Serves the harness page on 127.0.0.1 (a secure context, as IndexedDB's durability and service
 * workers want), plus endpoints the transport probes: one that never answers, one that redirects,
 * and one whose body is larger than the transport keeps.
 */
export async function startHarnessServer(script: string): Promise<HarnessServer> {
  const hanging = new Set<http.ServerResponse>();
  let busy = 0;
  const server = http.createServer((req, res) => {
    switch (req.url) {
      case '/':
        res.writeHead(200, { 'content-type': 'text/html' });
        return res.end('<!doctype html><script type="module" src="/harness.js"></script>');
      case '/harness.js':
        res.writeHead(200, { 'content-type': 'text/javascript' });
        return res.end(script);
      case '/hang':
        hanging.add(res);
        return;
      case '/sink':
        req.resume();
        req.on('end', () => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end('{}');
        });
        return;
      case '/busy':
        busy++;
        req.resume();
        res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '3600' });
        return res.end('{}');
      case '/busy-count':
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(String(busy));
      case '/redirect':
        res.writeHead(302, { location: '/' });
        return res.end();
      case '/big':
        res.writeHead(200, { 'content-type': 'text/plain' });
        return res.end('x'.repeat(3 * 1024 * 1024));
      default:
        res.writeHead(404);
        return res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      for (const res of hanging) res.socket?.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
