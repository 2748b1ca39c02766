import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * The ports the system hands out for port 0 (Linux: ip_local_port_range). A port given back by a
 * port-0 server goes back into that pool, where a server of a test running beside this one can be
 * given it the next moment: a "closed" port that then answers, or a fixed port found taken.
 */
function ephemeralRange(): [number, number] {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (low && high) return [low, high];
  } catch {
    // Not Linux: the IANA range most systems use.
  }
  return [49152, 65535];
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A port nothing listens on now, chosen below the system's port-0 range so that no server started
 * on port 0 (every other test's) can take it meanwhile.
 */
export async function freePort(): Promise<number> {
  const [low] = ephemeralRange();
  const floor = Math.min(10_000, low - 1000);
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = floor + Math.floor(Math.random() * (low - floor));
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port found between ${floor} and ${low}`);
}
