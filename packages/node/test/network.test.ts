import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { NetworkInterfaceInfo } from 'node:os';
import {
  createDefaultNetworkMonitor,
  createInterfacesNetworkMonitor,
  createLinuxNetworkMonitor,
  createPollingNetworkMonitor,
  interfaceType,
  readInterfacesType,
  typeFromName,
  ManualClock,
  readNetworkType,
  type ConnectivityChangeEvent,
  type NetworkType,
} from '@waypost/node';
import { at, openSdk, tempDir } from './support/harness.js';
import { startScriptedServer } from './support/scripted-server.js';

interface Iface {
  operstate: 'up' | 'down' | 'unknown' | 'dormant';
  carrier?: '0' | '1';
  wireless?: boolean;
  phy80211?: boolean;
  devtype?: string;
  /** A software interface (bridge, veth, tun, ppp): sysfs gives it no `device` link. */
  virtual?: boolean;
}

/** Writes a fake /sys/class/net with these interfaces; returns its root. */
function fakeSysfs(ifaces: Record<string, Iface>, root = join(tempDir(), 'net')): string {
  for (const [name, iface] of Object.entries(ifaces)) {
    const dir = join(root, name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'operstate'), `${iface.operstate}\n`);
    if (iface.carrier) writeFileSync(join(dir, 'carrier'), `${iface.carrier}\n`);
    if (iface.wireless) mkdirSync(join(dir, 'wireless'));
    if (iface.phy80211) mkdirSync(join(dir, 'phy80211'));
    if (!iface.virtual) mkdirSync(join(dir, 'device'));
    writeFileSync(join(dir, 'uevent'), `INTERFACE=${name}\n${iface.devtype ? `DEVTYPE=${iface.devtype}\n` : ''}`);
  }
  mkdirSync(root, { recursive: true });
  return root;
}

const up: Iface = { operstate: 'up' };
const down: Iface = { operstate: 'down' };

/** An os.networkInterfaces() entry. */
function nic(address: string, internal = false): NetworkInterfaceInfo {
  const family = address.includes(':') ? 'IPv6' : 'IPv4';
  return { address, family, internal, netmask: '', mac: '00:00:00:00:00:00', cidr: null } as NetworkInterfaceInfo;
}

describe('network monitor from os.networkInterfaces() (macOS, Windows, containers without sysfs)', () => {
  it.each<[string, NodeJS.Dict<NetworkInterfaceInfo[]>, NetworkType]>([
    ['loopback only', { lo0: [nic('127.0.0.1', true)] }, 'none'],
    ['link-local only (not connected yet)', { en0: [nic('169.254.3.4'), nic('fe80::1')] }, 'none'],
    ['macOS en0 with an address', { lo0: [nic('127.0.0.1', true)], en0: [nic('192.168.1.5')] }, 'ethernet'],
    ['Windows "Wi-Fi"', { 'Wi-Fi': [nic('10.0.0.7')] }, 'wifi'],
    ['Windows "Cellular"', { Cellular: [nic('100.64.1.2')] }, 'cellular'],
    ['iOS-style pdp_ip0 beside Wi-Fi prefers Wi-Fi', { pdp_ip0: [nic('10.1.1.1')], wlan0: [nic('10.0.0.2')] }, 'wifi'],
    ['a container eth0, IPv6 only', { eth0: [nic('2001:db8::5')] }, 'ethernet'],
    ['no interfaces at all', {}, 'none'],
  ])('%s', (_name, interfaces, type) => {
    expect(readInterfacesType(interfaces)).toBe(type);
  });

  it('typeFromName', () => {
    expect(
      ['wlan0', 'wlp2s0', 'Wi-Fi', 'WiFi 2', 'wwan0', 'rmnet0', 'ppp0', 'en0', 'eth0', 'Ethernet'].map(typeFromName),
    ).toEqual(['wifi', 'wifi', 'wifi', 'wifi', 'cellular', 'cellular', 'cellular', 'ethernet', 'ethernet', 'ethernet']);
  });

  it('the default monitor is not none on this host when sysfs is absent (it falls back to the interfaces)', () => {
    const monitor = createDefaultNetworkMonitor({ sysfsRoot: join(tempDir(), 'absent') });
    onTestFinished(() => monitor.close?.());
    expect(monitor.current()).not.toBe('none');
    const mac = createDefaultNetworkMonitor({ platform: 'darwin' });
    onTestFinished(() => mac.close?.());
    expect(mac.current()).not.toBe('none');
  });

  it('polls and reports changes', async () => {
    let interfaces: NodeJS.Dict<NetworkInterfaceInfo[]> = { lo0: [nic('127.0.0.1', true)] };
    const monitor = createInterfacesNetworkMonitor({ pollMs: 10, read: () => interfaces });
    onTestFinished(() => monitor.close?.());
    const seen: NetworkType[] = [];
    const changed = new Promise<void>((resolve) => monitor.subscribe(() => resolve()));
    monitor.subscribe((type) => seen.push(type));
    expect(monitor.current()).toBe('none');
    interfaces = { ...interfaces, 'Wi-Fi': [nic('10.0.0.7')] };
    await changed; // the monitor's next poll sees it
    expect(seen).toEqual(['wifi']);
  });
});

describe('upload hints: never none forever while uploads succeed', () => {
  it('a detection that cannot see the link: sync() succeeds, and automatic uploads follow', async () => {
    const monitor = createPollingNetworkMonitor(() => 'none', { pollMs: 60_000 });
    onTestFinished(() => monitor.close?.());
    const server = await startScriptedServer();
    onTestFinished(() => server.close());
    server.limit(50); // a few requests are expected: an SDK that sends on and on fails at once
    const bg = await openSdk({ network: monitor });
    const events: ConnectivityChangeEvent[] = [];
    bg.onConnectivityChange((event) => events.push(event));
    await bg.ready({ http: { url: server.url } });
    await bg.store.insertLocation(at(0));
    await bg.idle();
    expect(server.requests).toHaveLength(0);
    expect(await bg.sync()).toHaveLength(1);
    expect(monitor.current()).toBe('ethernet');
    expect(events).toEqual([{ connected: true, type: 'ethernet' }]);
    await bg.store.insertLocation(at(1));
    await bg.idle();
    expect(server.requests).toHaveLength(2);
    expect(await bg.getCount()).toBe(0);
  });

  it('after a failure, the periodic retry probes a monitor that says none, and recovers', async () => {
    const clock = new ManualClock();
    const monitor = createPollingNetworkMonitor(() => 'none', { pollMs: 60_000 });
    onTestFinished(() => monitor.close?.());
    const server = await startScriptedServer({ reset: true });
    onTestFinished(() => server.close());
    server.limit(50); // a few requests are expected: an SDK that sends on and on fails at once
    const bg = await openSdk({ network: monitor, clock });
    await bg.ready({ http: { url: server.url } });
    await bg.insertLocation(at(0));
    // The manual sync fails: the monitor drops back to none, and automatic uploads wait.
    expect(await bg.sync()).toEqual([]);
    expect(monitor.current()).toBe('none');
    await bg.insertLocation(at(1));
    await bg.idle();
    expect(server.requests).toHaveLength(1);
    // The periodic retry probes anyway, succeeds, and the monitor reports a connection again.
    await clock.advance(900_000);
    await bg.idle();
    expect(await bg.getCount()).toBe(0);
    expect(monitor.current()).toBe('ethernet');
  });

  it('a failed request makes the monitor look again, and drops the assumption', () => {
    let reads = 0;
    const monitor = createPollingNetworkMonitor(() => (reads++, 'none'), { pollMs: 60_000 });
    onTestFinished(() => monitor.close?.());
    monitor.hint?.('reachable');
    expect(monitor.current()).toBe('ethernet');
    const before = reads;
    monitor.hint?.('unreachable');
    expect(reads).toBe(before + 1);
    expect(monitor.current()).toBe('none');
  });

  it('hints never override what the detection sees', () => {
    const monitor = createPollingNetworkMonitor(() => 'cellular', { pollMs: 60_000 });
    onTestFinished(() => monitor.close?.());
    monitor.hint?.('reachable');
    expect(monitor.current()).toBe('cellular');
  });
});

describe('Linux network monitor (sysfs)', () => {
  it.each<[string, Record<string, Iface>, NetworkType]>([
    ['a wireless dir is wifi', { lo: up, wlan0: { ...up, wireless: true } }, 'wifi'],
    ['a phy80211 link is wifi', { wlp2s0: { ...up, phy80211: true } }, 'wifi'],
    ['DEVTYPE=wlan is wifi', { wl0: { ...up, devtype: 'wlan' } }, 'wifi'],
    ['wwan0 is cellular', { wwan0: up }, 'cellular'],
    ['ppp0 (operstate unknown, carrier 1) is cellular', { ppp0: { operstate: 'unknown', carrier: '1' } }, 'cellular'],
    ['DEVTYPE=wwan is cellular whatever its name', { usb0: { ...up, devtype: 'wwan' } }, 'cellular'],
    ['eth0 up is ethernet', { lo: up, eth0: up }, 'ethernet'],
    ['all down is none', { eth0: down, wlan0: { ...down, wireless: true }, wwan0: down }, 'none'],
    ['operstate unknown without carrier is down', { eth0: { operstate: 'unknown', carrier: '0' } }, 'none'],
    ['loopback alone is none', { lo: up }, 'none'],
    [
      'ethernet is preferred over wifi and cellular',
      { wwan0: up, wlan0: { ...up, wireless: true }, eth0: up },
      'ethernet',
    ],
    ['wifi is preferred over cellular', { wwan0: up, wlan0: { ...up, wireless: true }, eth0: down }, 'wifi'],
    ['cellular when it is the only link up', { wwan0: up, wlan0: { ...down, wireless: true }, eth0: down }, 'cellular'],
    // A Docker bridge or a VPN tunnel is not a way out: the physical link under it decides.
    [
      'a bridge up beside a modem is cellular',
      { docker0: { ...up, virtual: true, devtype: 'bridge' }, wwan0: up },
      'cellular',
    ],
    [
      'a VPN tunnel over wifi is wifi',
      { tun0: { operstate: 'unknown', carrier: '1', virtual: true }, wlan0: { ...up, wireless: true } },
      'wifi',
    ],
    ['ppp0 (virtual) is still cellular', { ppp0: { operstate: 'unknown', carrier: '1', virtual: true } }, 'cellular'],
    ['a virtual link alone (a container veth) is ethernet', { eth0: { ...up, virtual: true } }, 'ethernet'],
  ])('%s', (_what, ifaces, expected) => {
    expect(readNetworkType(fakeSysfs(ifaces))).toBe(expected);
  });

  it('a missing root is none; interfaceType ignores lo', () => {
    expect(readNetworkType(join(tempDir(), 'absent'))).toBe('none');
    const root = fakeSysfs({ lo: up });
    expect(interfaceType(root, 'lo')).toBeNull();
  });

  it('the monitor reports a link coming up, and the SDK uploads on it (connectivity trigger)', async () => {
    const root = fakeSysfs({ eth0: down });
    const monitor = createLinuxNetworkMonitor({ root, pollMs: 10 });
    onTestFinished(() => monitor.close?.());
    expect(monitor.current()).toBe('none');
    const server = await startScriptedServer();
    onTestFinished(() => server.close());
    server.limit(50); // a few requests are expected: an SDK that sends on and on fails at once
    const bg = await openSdk({ network: monitor });
    const events: ConnectivityChangeEvent[] = [];
    bg.onConnectivityChange((event) => events.push(event));
    const linkChanged = new Promise<void>((resolve) => bg.onConnectivityChange(() => resolve()));
    await bg.ready({ http: { url: server.url } });
    await bg.store.insertLocation(at(0));
    expect(server.requests).toHaveLength(0);

    writeFileSync(join(root, 'eth0', 'operstate'), 'up\n');
    await linkChanged; // the monitor's next poll of sysfs sees it
    expect(events).toEqual([{ connected: true, type: 'ethernet' }]);
    await bg.idle();
    expect(await bg.getCount()).toBe(0);
    expect(server.requests).toHaveLength(1);
  });
});
