import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A broken service: it acknowledges every upload with 200 and stores nothing, and its admin API
 * knows no records. What a device sends to it is lost, which the simulator must notice.
 */
export async function startBlackHoleServer(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const body = request.url?.startsWith('/api/devices') ? '[]' : '{"success":true,"stored":1,"duplicates":0}';
      response.writeHead(200, { 'content-type': 'application/json' }).end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
