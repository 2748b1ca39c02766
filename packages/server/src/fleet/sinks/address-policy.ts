import ipaddr from 'ipaddr.js';
import { ServerOptionError } from '../../option-checks.js';

/**
 * Where a sink made by an operator may send (issue 45): public unicast addresses only, unless the
 * owner allowed a host name or a range (`allowPrivateSinks`). Loopback, link-local (the cloud's
 * metadata service at 169.254.169.254), private, unique-local, carrier-grade NAT, multicast,
 * reserved and the IPv6 forms that embed an IPv4 address (IPv4-mapped, 6to4, NAT64) are all
 * "inside": ipaddr.js names the range, so no range is written by hand here.
 */
export interface AllowList {
  /** Host names allowed whatever they resolve to, lower case. */
  hosts: ReadonlySet<string>;
  /** Address ranges allowed (an address alone is a range of one). */
  ranges: readonly [ipaddr.IPv4 | ipaddr.IPv6, number][];
}

export const EMPTY_ALLOW_LIST: AllowList = { hosts: new Set(), ranges: [] };

/** The stable code of a sink refused, or a connection not made, because its address is inside. */
export const SINK_ADDRESS_BLOCKED = 'SINK_ADDRESS_BLOCKED';

/** A URL's host without the brackets of an IPv6 literal, lower case. */
export const bareHost = (hostname: string): string => hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();

/**
 * The owner's allow-list from its entries: `10.0.0.0/8`, `fd00::/8`, `192.168.1.20`, or a host
 * name (`mqtt.internal`). Throws naming the entry that is neither.
 */
export function parseAllowList(entries: readonly string[]): AllowList {
  const hosts = new Set<string>();
  const ranges: [ipaddr.IPv4 | ipaddr.IPv6, number][] = [];
  for (const raw of entries) {
    const entry = bareHost(raw.trim());
    if (entry.includes('/')) {
      if (!ipaddr.isValidCIDR(entry)) throw new Error(`"${entry.slice(0, 100)}" is not an address range`);
      ranges.push(ipaddr.parseCIDR(entry));
    } else if (ipaddr.isValid(entry)) {
      const address = ipaddr.parse(entry);
      ranges.push([address, address.kind() === 'ipv4' ? 32 : 128]);
    } else if (/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*\.?$/.test(entry)) {
      hosts.add(entry.replace(/\.$/, ''));
    } else throw new Error(`"${entry.slice(0, 100)}" is neither a host name nor an address or range`);
  }
  return { hosts, ranges };
}

/** Whether a host name (as the URL has it) is on the allow-list by name. */
export const hostAllowed = (hostname: string, allow: AllowList): boolean =>
  allow.hosts.has(bareHost(hostname).replace(/\.$/, ''));

/**
 * Whether a confined sink may connect to this resolved address: a public unicast one, or one in
 * an allowed range. An IPv4-mapped IPv6 address (`::ffff:127.0.0.1`) is judged as the IPv4 one.
 */
export function addressAllowed(address: string, allow: AllowList): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  if (parsed.range() === 'unicast') return true;
  return allow.ranges.some(
    ([base, bits]) => base.kind() === parsed.kind() && (parsed as ipaddr.IPv4).match(base as ipaddr.IPv4, bits),
  );
}

/** startServer()'s allowPrivateSinks, checked: INVALID_OPTION naming the entry that is wrong. */
export function allowPrivateSinksOf(entries: unknown): AllowList {
  if (entries === undefined) return EMPTY_ALLOW_LIST;
  if (!Array.isArray(entries) || entries.some((entry) => typeof entry !== 'string'))
    throw new ServerOptionError('allowPrivateSinks', 'must be a list of host names, addresses or ranges');
  try {
    return parseAllowList(entries as string[]);
  } catch (error) {
    throw new ServerOptionError('allowPrivateSinks', `entry ${(error as Error).message}`);
  }
}
