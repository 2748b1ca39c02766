import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  createLinuxNetworkMonitor,
  interfaceType,
  ManualNetwork,
  readNetworkType,
  type ConnectivityChangeEvent,
  type NetworkType,
} from '@waypost/node';
import { at, openSdk, tempDir } from './support/harness.js';
import { startScriptedServer } from './support/scripted-server.js';
import { until } from './support/until.js';

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

describe('ManualNetwork', () => {
  it('fires onConnectivityChange on each change, and only on a change', async () => {
    const network = new ManualNetwork('wifi');
    const bg = await openSdk({ network });
    const events: ConnectivityChangeEvent[] = [];
    bg.onConnectivityChange((event) => events.push(event));
    network.set('none');
    network.set('none');
    network.set({ type: 'cellular' });
    network.set('ethernet');
    expect(events).toEqual([
      { connected: false, type: 'none' },
      { connected: true, type: 'cellular' },
      { connected: true, type: 'ethernet' },
    ]);
    expect(() => network.set('5g' as NetworkType)).toThrow(TypeError);
    expect(network.current()).toBe('ethernet');
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
    const bg = await openSdk({ network: monitor });
    const events: ConnectivityChangeEvent[] = [];
    bg.onConnectivityChange((event) => events.push(event));
    await bg.ready({ http: { url: server.url } });
    await bg.store.insertLocation(at(0));
    expect(server.requests).toHaveLength(0);

    writeFileSync(join(root, 'eth0', 'operstate'), 'up\n');
    await until(() => events.length === 1, 'the link change');
    expect(events).toEqual([{ connected: true, type: 'ethernet' }]);
    await until(async () => (await bg.getCount()) === 0, 'upload on connectivity');
    expect(server.requests).toHaveLength(1);
  });
});
