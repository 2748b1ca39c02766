import dns from 'node:dns';
import net from 'node:net';
import { addressAllowed, bareHost, hostAllowed, SINK_ADDRESS_BLOCKED, type AllowList } from './address-policy.js';

/** A sink refused, or a connection not made, because its address is inside the server's network. */
export class SinkAddressBlocked extends Error {
  readonly code = SINK_ADDRESS_BLOCKED;
  constructor(host: string, address?: string) {
    super(
      `${SINK_ADDRESS_BLOCKED}: ${host.slice(0, 200)}${address && address !== host ? ` resolves to ${address}, which is` : ' is'} ` +
        `inside the server's network (loopback, link-local, private or reserved) and not on allowPrivateSinks`,
    );
  }
}

/** A resolved address and its family, as dns.lookup gives them with `all`. */
type Resolved = { address: string; family: number };
type Resolver = (hostname: string, callback: (error: Error | null, addresses: Resolved[]) => void) => void;

const systemResolver: Resolver = (hostname, callback) =>
  dns.lookup(hostname, { all: true, verbatim: true }, (error, addresses) => callback(error, addresses ?? []));

/**
 * The connect-time check of a confined sink (one an operator made): every connection resolves its
 * host through `lookup`, which refuses a host whose addresses include one inside, so a name that
 * pointed outside when the sink was made and inside later (DNS rebinding) is refused too. A
 * literal address is never looked up by node:net: `checkLiteral` judges it before connecting.
 */
export interface SinkGuard {
  lookup: net.LookupFunction;
  checkLiteral(hostname: string): void;
  /** The host's addresses, each allowed; rejects with SinkAddressBlocked otherwise. */
  resolve(hostname: string): Promise<string[]>;
}

export function createSinkGuard(allow: AllowList, resolver: Resolver = systemResolver): SinkGuard {
  const judged = (hostname: string, addresses: Resolved[]): Error | null => {
    if (hostAllowed(hostname, allow)) return null;
    const inside = addresses.find(({ address }) => !addressAllowed(address, allow));
    return inside ? new SinkAddressBlocked(hostname, inside.address) : null;
  };
  const lookup = ((hostname: string, options: dns.LookupOptions, callback: (...args: unknown[]) => void) => {
    resolver(hostname, (error, addresses) => {
      if (error) return callback(error);
      const refused = judged(hostname, addresses);
      if (refused) return callback(refused);
      const wanted = options.family ? addresses.filter((a) => a.family === options.family) : addresses;
      if (options.all) return callback(null, wanted);
      const first = wanted[0];
      if (!first) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }));
      callback(null, first.address, first.family);
    });
  }) as net.LookupFunction;
  return {
    lookup,
    checkLiteral(hostname) {
      const host = bareHost(hostname);
      if (net.isIP(host) && !hostAllowed(host, allow) && !addressAllowed(host, allow))
        throw new SinkAddressBlocked(host);
    },
    resolve: (hostname) =>
      new Promise((resolve, reject) => {
        const host = bareHost(hostname);
        resolver(host, (error, addresses) => {
          if (error) return reject(error);
          const refused = judged(host, addresses);
          if (refused) reject(refused);
          else resolve(addresses.map(({ address }) => address));
        });
      }),
  };
}
