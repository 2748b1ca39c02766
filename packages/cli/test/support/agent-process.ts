import { within } from './bounded.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { onTestFinished } from 'vitest';

// The BUILT command (`npm test` builds first): the agent is a separate process, as in production.
export const BIN = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));

export interface AgentProcess {
  child: ChildProcess;
  stderr: () => string;
  stdout: () => string;
  /** Resolves once stderr matches; fails (bounded) with what was printed. */
  waitFor: (pattern: RegExp, timeoutMs?: number) => Promise<RegExpMatchArray>;
  /**
   * Resolves with [exit code, signal]; bounded from when it is read (EXIT_WAIT_MS): a command that
   * never exits (an upload that never ends) fails the test naming it, not at the test's timeout.
   */
  readonly exited: Promise<[number | null, NodeJS.Signals | null]>;
  /** The same with a bound of its own, for a command that runs longer by design (a fault simulation). */
  exitedWithin: (ms: number) => Promise<[number | null, NodeJS.Signals | null]>;
}

/**
 * How long a test waits for a command to exit once it awaits it: well under the tests' 30 s
 * timeout, since a test waits for other things first.
 */
export const EXIT_WAIT_MS = 20_000;

export function spawnAgent(args: string[]): AgentProcess {
  return spawnCli(['agent', ...args]);
}

/** `waypost ARGS` as a child process that the test watches (stderr) and signals while it runs. */
export function spawnCli(args: string[], env: NodeJS.ProcessEnv = process.env): AgentProcess {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env });
  onTestFinished(() => void child.kill('SIGKILL'));
  let stderr = '';
  const waiters: (() => void)[] = [];
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    waiters.forEach((w) => w());
  });
  let stdout = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  const exitedWithin = (ms = EXIT_WAIT_MS) =>
    within(exited, ms, () => `waypost ${args.join(' ').slice(0, 200)} to exit; stderr:\n${stderr.slice(-2000)}`);
  const waitFor = (pattern: RegExp, timeoutMs = 15_000) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const check = () => {
        const match = pattern.exec(stderr);
        if (match) {
          clearTimeout(timer);
          resolve(match);
        }
      };
      const timer = setTimeout(
        () => reject(new Error(`${args[0]} never printed ${pattern}; stderr:\n${stderr}`)),
        timeoutMs,
      );
      waiters.push(check);
      void exited.then(() => setTimeout(check, 0));
      check();
    });
  return {
    child,
    stderr: () => stderr,
    stdout: () => stdout,
    waitFor,
    get exited() {
      return exitedWithin();
    },
    exitedWithin,
  };
}

/** An NMEA-over-TCP source the test writes to: what a receiver on the network would be. */
export interface NmeaFeed {
  port: number;
  /** Resolves once the agent is connected. */
  connected: () => Promise<Socket>;
  send: (lines: string[]) => void;
  /** Drops the connection and stops listening (the receiver goes away). */
  down: () => Promise<void>;
  /** Listens again on the same port. */
  up: () => Promise<void>;
  close: () => Promise<void>;
}

export async function startNmeaFeed(): Promise<NmeaFeed> {
  let sockets: Socket[] = [];
  let waiting: ((s: Socket) => void)[] = [];
  let server: Server;
  const listen = (port: number) =>
    new Promise<number>((resolve) => {
      server = createServer((socket) => {
        sockets.push(socket);
        socket.on('error', () => undefined);
        waiting.forEach((w) => w(socket));
        waiting = [];
      });
      server.listen(port, '127.0.0.1', () => resolve((server.address() as { port: number }).port));
    });
  const port = await listen(0);
  const down = async () => {
    sockets.forEach((s) => s.destroy());
    sockets = [];
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  const feed: NmeaFeed = {
    port,
    connected: () =>
      sockets.length > 0
        ? Promise.resolve(sockets[0]!)
        : within(
            new Promise<Socket>((resolve) => waiting.push(resolve)),
            15_000,
            'the agent never connected to the NMEA feed',
          ),
    send: (lines) => sockets.forEach((s) => s.write(lines.map((l) => `${l}\r\n`).join(''))),
    down,
    up: async () => void (await listen(port)),
    close: down,
  };
  onTestFinished(() => feed.close().catch(() => undefined));
  return feed;
}
