import { execFileSync, spawn, type ChildProcess } from 'node:child_process';

/**
 * Hosts of the deployment test, each a Linux network namespace on one bridge (root required):
 * what runs in one sees only its own address and the bridge, as on a host of its own, and cutting
 * its veth is cutting its network cable. Everything is named wp30-*, so a run left behind by a
 * crash is found and removed by the next.
 */
const BRIDGE = 'wp30br';
const PREFIX = 'wp30-';
/** The test process's own address on the bridge (the webhook receiver listens there). */
export const BRIDGE_ADDRESS = '10.73.0.1';

export interface Host {
  name: string;
  address: string;
  /** The veth end on the bridge: down is the host's cable pulled. */
  link: string;
}

const ip = (...args: string[]): string =>
  execFileSync('ip', args, { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });

const quietly = (fn: () => unknown): void => {
  try {
    fn();
  } catch {
    // already gone
  }
};

/** Kills whatever still runs in this test's namespaces, then removes them and the bridge. */
export function removeHosts(): void {
  const names = ip('netns', 'list')
    .split('\n')
    .map((line) => line.split(' ')[0]!)
    .filter((name) => name.startsWith(PREFIX));
  for (const name of names) {
    for (const pid of ip('netns', 'pids', name).split('\n').filter(Boolean))
      quietly(() => process.kill(Number(pid), 'SIGKILL'));
    quietly(() => ip('netns', 'del', name));
  }
  // A veth whose namespace is going away may outlive it a moment: deleting one end deletes both.
  for (const line of ip('-o', 'link', 'show').split('\n')) {
    const link = /^\d+: (wp30h-[^@:]+)/.exec(line)?.[1];
    if (link) quietly(() => ip('link', 'del', link));
  }
  quietly(() => ip('link', 'del', BRIDGE));
}

export function createBridge(): void {
  ip('link', 'add', BRIDGE, 'type', 'bridge');
  ip('addr', 'add', `${BRIDGE_ADDRESS}/24`, 'dev', BRIDGE);
  ip('link', 'set', BRIDGE, 'up');
}

/** A host: a namespace with one interface on the bridge at `address`, and its loopback. */
export function addHost(short: string, address: string): Host {
  const host: Host = { name: `${PREFIX}${short}`, address, link: `wp30h-${short}` };
  ip('netns', 'add', host.name);
  ip('link', 'add', host.link, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', host.name);
  ip('link', 'set', host.link, 'master', BRIDGE, 'up');
  ip('-n', host.name, 'addr', 'add', `${address}/24`, 'dev', 'eth0');
  ip('-n', host.name, 'link', 'set', 'eth0', 'up');
  ip('-n', host.name, 'link', 'set', 'lo', 'up');
  return host;
}

/** Pulls the host's cable (false) or plugs it back (true). */
export function setLink(host: Host, up: boolean): void {
  ip('link', 'set', host.link, up ? 'up' : 'down');
}

/** A process on the host; its stderr and stdout kept (the last 64 kB) for failure messages. */
export interface HostProcess {
  host: Host;
  child: ChildProcess;
  output: () => string;
  /** Resolves once the process has exited. */
  exited: Promise<void>;
}

export function runOn(host: Host, command: string, args: readonly string[], env: NodeJS.ProcessEnv = {}): HostProcess {
  // `ip netns exec` execs the command: the child's pid is the command's, so signals reach it.
  const child = spawn('ip', ['netns', 'exec', host.name, command, ...args], {
    env: { PATH: process.env['PATH'], HOME: process.env['HOME'], ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-65_536);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { host, child, output: () => output, exited };
}

/** Runs a command on the host to its end; throws with its output when it fails. */
export function execOn(host: Host, command: string, args: readonly string[]): string {
  return execFileSync('ip', ['netns', 'exec', host.name, command, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
  });
}

/** SIGKILL or SIGTERM, and wait until it is gone. */
export async function stop(process: HostProcess, signal: NodeJS.Signals): Promise<void> {
  if (process.child.exitCode === null && process.child.signalCode === null) process.child.kill(signal);
  await process.exited;
}
