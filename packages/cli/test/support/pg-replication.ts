// A PostgreSQL primary and an asynchronous streaming standby of it, each a `postgres` process of
// the Debian binaries the test starts itself (issue 46: a failover to a standby that was behind).
// The standby streams through a TCP relay the test holds, so that lag is real and exact: while the
// relay holds the primary's bytes back, the standby runs, answers read-only queries, and lacks what
// the primary committed since. (Pausing WAL replay on the standby would not do: the WAL still
// arrives, and a promotion ends the pause and replays it, so nothing would be lost.)
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import pg from 'pg';
import { within } from './bounded.js';
import { freePort } from './free-port.js';

const PG_ROOT = '/usr/lib/postgresql';
const WAIT_MS = 20_000;

/** The newest installed server binaries; an error (never a skip) when there are none. */
export function postgresBin(): string {
  const versions = existsSync(PG_ROOT)
    ? readdirSync(PG_ROOT).filter((v) => existsSync(join(PG_ROOT, v, 'bin', 'initdb')))
    : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (newest === undefined) {
    throw new Error(`no PostgreSQL server binaries in ${PG_ROOT}/*/bin (Debian: apt-get install postgresql)`);
  }
  return join(PG_ROOT, newest, 'bin');
}

/** PostgreSQL refuses to run as root: as root, its processes run as the postgres user. */
function runAs(): { uid: number; gid: number } | Record<string, never> {
  if (process.getuid?.() !== 0) return {};
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

export interface PgInstance {
  readonly port: number;
  readonly url: string;
  query<T extends pg.QueryResultRow = Record<string, unknown>>(sql: string): Promise<T[]>;
  /** SIGKILL to the postmaster: the machine's database dies without a shutdown of its own. */
  kill(): Promise<void>;
  /** SIGQUIT: an immediate shutdown that still ends every process of the instance. */
  stop(): Promise<void>;
}

function startPostgres(
  bin: string,
  data: string,
  port: number,
  ready: RegExp,
): Promise<PgInstance & { child: ChildProcess }> {
  const child = spawn(
    join(bin, 'postgres'),
    ['-D', data, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', `unix_socket_directories=${data}`]
      // Test-only: no fsync (the machine's crash is not under test, the database process's death is).
      .concat(['-c', 'fsync=off']),
    { ...runAs(), cwd: data, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let log = '';
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const instance = {
    child,
    port,
    url,
    async query<T extends pg.QueryResultRow>(sql: string): Promise<T[]> {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        return (await client.query<T>(sql)).rows;
      } finally {
        await client.end();
      }
    },
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGQUIT');
      await exited;
    },
  };
  return within(
    new Promise((resolve, reject) => {
      child.stderr!.on('data', (chunk: Buffer) => {
        log += chunk.toString();
        if (ready.test(log)) resolve(instance);
      });
      child.once('exit', (code) => reject(new Error(`postgres on ${port} exited with ${code}:\n${log}`)));
    }),
    WAIT_MS,
    () => `postgres on ${port} to accept connections; its log:\n${log}`,
  );
}

/** Relays TCP to `target`; hold() keeps the target's bytes back (the client's still pass), cut() drops all. */
async function startRelay(target: number) {
  const pairs: [Socket, Socket][] = [];
  let held = false;
  const server: Server = createServer((client) => {
    const upstream = connect(target, '127.0.0.1');
    pairs.push([client, upstream]);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.pipe(upstream);
    if (!held) upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    hold() {
      held = true;
      for (const [client, upstream] of pairs) {
        upstream.unpipe(client);
        upstream.pause();
      }
    },
    cut: () =>
      new Promise<void>((resolve) => {
        for (const [client, upstream] of pairs) {
          client.destroy();
          upstream.destroy();
        }
        server.close(() => resolve());
      }),
  };
}

export interface ReplicatedPostgres {
  primary: PgInstance;
  standby: PgInstance;
  /** Resolves once the standby has replayed everything the primary has written so far. */
  caughtUp(): Promise<void>;
  /** From now on the standby receives nothing more: it falls behind. */
  holdReplication(): void;
  /** The primary dies (SIGKILL) with what the standby never got; the standby is promoted. */
  failOver(): Promise<void>;
  /** Stops both and removes their files. */
  close(): Promise<void>;
}

export async function startReplicatedPostgres(): Promise<ReplicatedPostgres> {
  const bin = postgresBin();
  // Under /tmp itself: the test run's own temporary folder is closed to the postgres user.
  const dir = mkdtempSync('/tmp/waypost-failover-');
  const owner = runAs();
  if ('uid' in owner) chownSync(dir, owner.uid, owner.gid);
  // Not execFileSync: pg_basebackup goes through the relay, which runs in this process's event loop.
  const run = (tool: string, args: string[]) =>
    new Promise<void>((resolve, reject) =>
      execFile(join(bin, tool), args, { ...owner, cwd: dir }, (error, _out, stderr) =>
        error ? reject(new Error(`${tool}: ${error.message}\n${stderr}`)) : resolve(),
      ),
    );
  const started: (PgInstance & { child: ChildProcess })[] = [];
  let relay: Awaited<ReturnType<typeof startRelay>> | null = null;
  const close = async () => {
    await relay?.cut();
    await Promise.all(started.map((instance) => instance.stop()));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await run('initdb', ['-D', join(dir, 'primary'), '-A', 'trust', '-U', 'postgres', '--no-sync']);
    const primary = await startPostgres(bin, join(dir, 'primary'), await freePort(), /ready to accept connections/);
    started.push(primary);
    relay = await startRelay(primary.port);
    // -R: the standby's primary_conninfo is the relay's address; -X stream: WAL as it comes.
    await run(
      'pg_basebackup',
      ['-h', '127.0.0.1', '-p', String(relay.port), '-U', 'postgres', '-D', join(dir, 'standby')].concat([
        '-R',
        '-X',
        'stream',
        '--no-sync',
      ]),
    );
    const standby = await startPostgres(bin, join(dir, 'standby'), await freePort(), /ready to accept read-only/);
    started.push(standby);
    const theRelay = relay;
    return {
      primary,
      standby,
      async caughtUp() {
        const [{ lsn } = { lsn: '' }] = await primary.query<{ lsn: string }>(
          'SELECT pg_current_wal_lsn()::text AS lsn',
        );
        const replayed = async (): Promise<void> => {
          const [row] = await standby.query<{ behind: boolean }>(
            `SELECT pg_last_wal_replay_lsn() < '${lsn}'::pg_lsn AS behind`,
          );
          if (!row!.behind) return;
          await new Promise((resolve) => setTimeout(resolve, 50));
          return replayed();
        };
        await within(replayed(), WAIT_MS, `the standby to replay the primary's WAL up to ${lsn}`);
      },
      holdReplication: () => theRelay.hold(),
      async failOver() {
        await primary.kill();
        await theRelay.cut();
        const [row] = await standby.query<{ promoted: boolean }>('SELECT pg_promote(true, 20) AS promoted');
        if (!row!.promoted) throw new Error('pg_promote() did not promote the standby within 20 s');
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
