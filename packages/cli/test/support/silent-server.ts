import { createServer, type AddressInfo, type Socket } from 'node:net';
import { onTestFinished } from 'vitest';

/**
 * A service that accepts connections, reads every request and answers none (until the test ends):
 * what a hung backend looks like to a device. Resolves with its /locations URL.
 */
export async function startSilentServer(): Promise<string> {
  const sockets = new Set<Socket>();
  const silent = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.resume();
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => {
    sockets.forEach((socket) => socket.destroy());
    return new Promise<void>((resolve) => silent.close(() => resolve()));
  });
  return `http://127.0.0.1:${(silent.address() as AddressInfo).port}/locations`;
}
