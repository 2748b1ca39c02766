// The pure decisions behind issue 45, each by a table written here: which resolved addresses a
// confined sink may reach (and what the owner's allow-list adds), what a sink's failure tells an
// operator, and which live feed is refused with which code.
import { describe, expect, it } from 'vitest';
import { addressAllowed, EMPTY_ALLOW_LIST, parseAllowList } from '../src/fleet/sinks/address-policy.js';
import { errorCategory } from '../src/fleet/sinks/error-category.js';
import { refusalOf } from '../src/live/feed-bounds.js';

describe('addresses a confined sink may reach', () => {
  const table: [string, boolean][] = [
    ['93.184.215.14', true],
    ['2606:4700:4700::1111', true],
    ['127.0.0.1', false],
    ['127.255.255.254', false],
    ['::1', false],
    ['::ffff:127.0.0.1', false],
    ['::ffff:10.1.2.3', false],
    ['169.254.169.254', false],
    ['fe80::1', false],
    ['10.0.0.1', false],
    ['172.31.255.255', false],
    ['192.168.0.1', false],
    ['100.64.0.1', false],
    ['fd12:3456::1', false],
    ['0.0.0.0', false],
    ['::', false],
    ['224.0.0.251', false],
    ['255.255.255.255', false],
    ['192.0.2.10', false],
    ['2002:7f00:1::', false],
    ['64:ff9b::7f00:1', false],
    ['not an address', false],
  ];
  it.each(table)('%s: %s', (address, allowed) => {
    expect(addressAllowed(address, EMPTY_ALLOW_LIST)).toBe(allowed);
  });

  it("adds the owner's ranges and addresses, and nothing beside them", () => {
    const allow = parseAllowList(['10.20.0.0/16', '[fd00::5]', 'MQTT.internal.']);
    expect(addressAllowed('10.20.3.4', allow)).toBe(true);
    expect(addressAllowed('::ffff:10.20.3.4', allow)).toBe(true);
    expect(addressAllowed('10.21.0.1', allow)).toBe(false);
    expect(addressAllowed('fd00::5', allow)).toBe(true);
    expect(addressAllowed('fd00::6', allow)).toBe(false);
    expect(addressAllowed('127.0.0.1', allow)).toBe(false);
    expect([...allow.hosts]).toEqual(['mqtt.internal']);
    expect(() => parseAllowList(['10.0.0.0/33'])).toThrow(/not an address range/);
    expect(() => parseAllowList(['mqtt internal'])).toThrow(/neither a host name nor an address/);
  });
});

describe("what a sink's failure tells an operator", () => {
  const table: [string, string][] = [
    ['HTTP 503', 'HTTP 5xx'],
    ['HTTP 404', 'HTTP 4xx'],
    ['HTTP 302', 'HTTP 3xx'],
    ['connect ECONNREFUSED 10.0.0.7:6379', 'refused'],
    ['MQTT broker not connected', 'refused'],
    ['CONNECTION_REFUSED', 'refused'],
    ['no answer in 10 s', 'timeout'],
    ['MQTT PUBACK timed out', 'timeout'],
    ['TIMEOUT', 'timeout'],
    ['getaddrinfo ENOTFOUND hooks.example', 'dns'],
    ['unable to verify the first certificate', 'tls'],
    ['SINK_ADDRESS_BLOCKED: 127.1 resolves to 127.0.0.1', 'blocked'],
    ['Parse Error: Expected HTTP/', 'failed'],
    ['SSH-2.0-OpenSSH_9.6', 'failed'],
  ];
  it.each(table)('%s: %s', (message, category) => {
    expect(errorCategory(message)).toBe(category);
  });
});

describe('which live feed is refused', () => {
  const limits = { perUser: 2, perAddress: 3, total: 4 };
  const open = (byReader: [string, number][], byAddress: [string, number][], total: number) => ({
    byReader: new Map(byReader),
    byAddress: new Map(byAddress),
    total,
  });
  it.each([
    ['a first feed', open([], [], 0), null],
    ["the user's third", open([['ann', 2]], [['a', 2]], 2), 'LIVE_FEEDS_PER_USER'],
    ["the address's fourth", open([['bob', 1]], [['a', 3]], 3), 'LIVE_FEEDS_PER_ADDRESS'],
    ["the server's fifth", open([], [], 4), 'LIVE_FEEDS_FULL'],
  ] as const)('%s', (_, state, code) => {
    const refused = refusalOf(state, limits, state.byReader.has('bob') ? 'bob' : 'ann', 'a');
    expect(refused?.code ?? null).toBe(code);
    if (refused) expect(refused.status).toBe(code === 'LIVE_FEEDS_FULL' ? 503 : 429);
  });
});
