import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { onTestFinished } from 'vitest';

/** A server that refuses every upload with one answer, and counts the requests it got. */
export interface RefusingServer {
  url: string;
  requests: () => number;
}

export async function startRefusingServer(
  status: number,
  body: string,
  headers: Record<string, string> = {},
): Promise<RefusingServer> {
  let requests = 0;
  const server = createServer((request, response) => {
    requests++;
    request.resume();
    request.on('end', () => response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/locations`, requests: () => requests };
}
