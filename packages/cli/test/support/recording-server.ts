import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A plain HTTP endpoint on port 0 that answers 200 and keeps every body it receives. */
export interface RecordingServer {
  url: string;
  bodies: unknown[];
  close(): Promise<void>;
}

export async function startRecordingServer(): Promise<RecordingServer> {
  const bodies: unknown[] = [];
  const server: Server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    request.on('end', () => {
      bodies.push(JSON.parse(text) as unknown);
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"success":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/locations`,
    bodies,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
