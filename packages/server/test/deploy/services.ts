import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import net from 'node:net';
import { execOn, runOn, type Host, type HostProcess } from './netns.js';

/**
 * The deployment of docs/deploy/, started on the test's hosts from its files as they are: the
 * addresses in them are the hosts' addresses. Changed only where one machine differs from several:
 * each NATS node's store_dir (one filesystem), the path of the waypost command (this checkout's
 * CLI), and the user (root runs all; systemd's User= and Restart= are played by the test).
 */
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
export const DEPLOY = join(ROOT, 'docs/deploy');
const CLI = join(ROOT, 'packages/cli/bin/waypost.js');

const read = (file: string) => readFileSync(join(DEPLOY, file), 'utf8');

/** Waits for a TCP port to accept connections, failing with `what` after `timeoutMs`. */
export async function portOpen(
  address: string,
  port: number,
  what: string,
  timeoutMs = 20_000,
  process?: HostProcess,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect({ host: address, port, timeout: 500 });
      socket.once('connect', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
      socket.once('timeout', () => (socket.destroy(), resolve(false)));
    });
    if (open) return;
    if (Date.now() > deadline || process?.child.exitCode != null)
      throw new Error(
        `${what} did not listen on ${address}:${port} within ${timeoutMs} ms${process ? `; its output:\n${process.output()}` : ''}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

// ---- PostgreSQL: a cluster of the test's own (restarting it must not touch the shared one) ----

const PG_BIN = join('/usr/lib/postgresql', readdirSync('/usr/lib/postgresql').sort().at(-1)!, 'bin');

/** waypost.env's variables. */
export function waypostEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of read('waypost.env').split('\n')) {
    const match = /^([A-Z_]+)=(.*)$/.exec(line.trim());
    if (match) env[match[1]!] = match[2]!;
  }
  return env;
}

export class Postgres {
  private readonly data: string;
  constructor(
    private readonly host: Host,
    dir: string,
  ) {
    this.data = join(dir, 'data');
    mkdirSync(dir, { recursive: true });
    execFileSync('chown', ['postgres:postgres', dir]);
    this.data = join(dir, 'data');
  }

  private pgCtl(...args: string[]): string {
    return execOn(this.host, 'runuser', ['-u', 'postgres', '--', join(PG_BIN, 'pg_ctl'), '-D', this.data, ...args]);
  }

  /** initdb, the role and database of waypost.env's DATABASE_URL, started on the host's address. */
  async start(): Promise<void> {
    execFileSync('runuser', ['-u', 'postgres', '--', join(PG_BIN, 'initdb'), '-D', this.data, '-A', 'trust'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // The test's own connections (from the bridge) as postgres; the hosts with the role's password.
    appendFileSync(
      join(this.data, 'pg_hba.conf'),
      `host all postgres 10.73.0.1/32 trust\nhost all all 10.73.0.0/24 scram-sha-256\n`,
    );
    // Test-only: no fsync (the machine's crash is not under test, a server's restart is).
    appendFileSync(
      join(this.data, 'postgresql.conf'),
      `listen_addresses = '${this.host.address}'\nunix_socket_directories = '${this.data}'\nfsync = off\nmax_connections = 200\n`,
    );
    this.pgCtl('-l', join(this.data, 'log'), '-w', 'start');
    const url = new URL(waypostEnv()['DATABASE_URL']!);
    const psql = (sql: string) =>
      execOn(this.host, 'runuser', ['-u', 'postgres', '--', join(PG_BIN, 'psql'), '-h', this.data, '-c', sql]);
    psql(`CREATE ROLE ${url.username} LOGIN PASSWORD '${decodeURIComponent(url.password)}'`);
    psql(`CREATE DATABASE ${url.pathname.slice(1)} OWNER ${url.username}`);
  }

  /** A fast restart: open connections are cut, as a real restart cuts them. */
  restart(): void {
    this.pgCtl('-l', join(this.data, 'log'), '-w', '-m', 'fast', 'restart');
  }

  stop(): void {
    try {
      this.pgCtl('-w', '-m', 'immediate', 'stop');
    } catch {
      // not running
    }
  }

  /** The URL the test itself queries with (as postgres, from the bridge). */
  get adminUrl(): string {
    return `postgres://postgres@${this.host.address}:5432/${new URL(waypostEnv()['DATABASE_URL']!).pathname.slice(1)}`;
  }
}

// ---- NATS ----

/** nats-N.conf, its store_dir moved into the test's directory. */
export function startNats(host: Host, node: number, dir: string): HostProcess {
  const store = join(dir, `nats${node}`);
  mkdirSync(store, { recursive: true });
  const file = join(dir, `nats-${node}.conf`);
  writeFileSync(file, read(`nats-${node}.conf`).replace(/store_dir: .*/, `store_dir: ${store}`));
  return runOn(host, '/usr/sbin/nats-server', ['-c', file]);
}

/** The --nats list of waypost.service: what the test connects its JetStream consumer to. */
export function natsUrls(): string {
  return /--nats (\S+)/.exec(read('waypost.service'))![1]!;
}

// ---- Waypost hosts ----

/** waypost.service's ExecStart, run on the host with waypost.env (the command is this checkout's CLI). */
export function startWaypost(host: Host): HostProcess {
  const line = read('waypost.service')
    .split('\n')
    .find((l) => l.startsWith('ExecStart='))!;
  const [command, ...args] = line.slice('ExecStart='.length).split(/\s+/);
  if (command !== '/usr/bin/waypost') throw new Error(`waypost.service runs ${command}, expected /usr/bin/waypost`);
  return runOn(host, process.execPath, [CLI, ...args], waypostEnv());
}

/** The port waypost.service listens on. */
export const WAYPOST_PORT = Number(/--port (\d+)/.exec(read('waypost.service'))![1]);

// ---- HAProxy ----

export function startHaproxy(host: Host): HostProcess {
  // -db: foreground, as systemd runs it (Type=notify there); the file is read as it is.
  return runOn(host, '/usr/sbin/haproxy', ['-db', '-f', join(DEPLOY, 'haproxy.cfg')]);
}

/** The address HAProxy's frontend binds, from haproxy.cfg. */
export function balancerAddress(): { address: string; port: number } {
  const [, address, port] = /bind (\S+):(\d+)/.exec(read('haproxy.cfg'))!;
  return { address: address!, port: Number(port) };
}
