import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { connect, type NatsConnection } from 'nats';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../helpers/spawn-server.js';
import { WebhookReceiver } from '../helpers/webhook-receiver.js';
import {
  crossingsMatchTracks,
  deliveredInOrder,
  webhookOncePerDevice,
  historyCrossings,
  ledgersComplete,
  resentInDoubt,
  storedOnce,
  streamCrossings,
  type CrossingEvent,
  type FenceWindow,
} from './checks.js';
import { feedCoversEverything, PinnedFeed, toldLiveSoFar } from './feed-client.js';
import { depotOf, Fleet } from './fleet-sim.js';
import {
  addHost,
  BRIDGE_ADDRESS,
  createBridge,
  removeHosts,
  setLink,
  stop,
  type Host,
  type HostProcess,
} from './netns.js';
import {
  balancerAddress,
  natsUrls,
  portOpen,
  Postgres,
  startHaproxy,
  startNats,
  startWaypost,
  WAYPOST_PORT,
  waypostEnv,
} from './services.js';

// Issue 30: the deployment of docs/deploy/ built on this machine, hosts as network namespaces
// (root), and broken while a fleet uploads through HAProxy. Bounded: each wait names what it
// waited for; the whole takes about two minutes, most of it the outbox lease (30 s) of the host
// that was killed running out and the link cut.
const TOKEN = waypostEnv()['WAYPOST_ADMIN_TOKEN']!;
const METRICS_TOKEN = waypostEnv()['WAYPOST_METRICS_TOKEN']!;
const DEVICES = Array.from({ length: 8 }, (_, k) => `truck-${k}`);
/**
 * How long a host's cable stays out: the issue says 30 s. Nothing here waits on a clock for it:
 * connections to the host fail after HAProxy's 2 s connect timeout and go to another host, uploads
 * stuck on it time out at 8 s and are resent elsewhere, its open transaction is ended by
 * PostgreSQL after 5 s idle, its connections resume by TCP retransmission. 10 s takes every one
 * of those paths; 30 s would only make the test 20 s longer.
 */
const CUT_MS = 10_000;
/** A webhook request telling a crossing of one of the fences that come and go. */
const isTemporaryCrossing = (request: { body: string }): boolean =>
  (JSON.parse(request.body) as CrossingEvent).data.geofence.identifier.startsWith('tmp-');

describe('the deployment of docs/deploy/ (3 Waypost hosts, 3 NATS nodes, HAProxy, PostgreSQL)', () => {
  // Under /tmp itself: the test run's own temporary directory is closed to the postgres user.
  const dir = mkdtempSync('/tmp/waypost-deploy-');
  const hosts: Record<string, Host> = {};
  const waypost = new Map<string, HostProcess>();
  const nats = new Map<number, HostProcess>();
  const receiver = new WebhookReceiver(BRIDGE_ADDRESS);
  let postgres: Postgres;
  let haproxy: HostProcess;
  let sql: pg.Client;
  let nc: NatsConnection | null = null;
  /** One dashboard's live feed per host. */
  const feeds = new Map<string, PinnedFeed>();
  const { address: lbAddress, port: lbPort } = balancerAddress();
  const lb = `http://${lbAddress}:${lbPort}`;
  const hostUrl = (name: string) => `http://${hosts[name]!.address}:${WAYPOST_PORT}`;

  /** A Waypost host started (or restarted, as systemd's Restart=always does) and answering /health. */
  async function bootWaypost(name: string): Promise<void> {
    waypost.set(name, startWaypost(hosts[name]!));
    await portOpen(hosts[name]!.address, WAYPOST_PORT, `waypost on ${name}`, 30_000, waypost.get(name));
  }

  const admin = async (path: string, method: string, body?: unknown): Promise<Response> => {
    // Retried like a device would: a fault may take the request; a repeat is harmless here.
    for (let attempt = 0; ; attempt++) {
      try {
        const response = await fetch(lb + path, {
          method,
          headers: {
            authorization: `Bearer ${TOKEN}`,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          signal: AbortSignal.timeout(8000),
        });
        if (response.status < 500 || attempt === 20) return response;
      } catch (error) {
        if (attempt === 20) throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
  };

  beforeAll(async () => {
    buildServer(); // the hosts run the built CLI and server
    chmodSync(dir, 0o755); // PostgreSQL runs as postgres
    removeHosts(); // a run left behind by a crash
    createBridge();
    const layout: [string, string][] = [
      ['lb', lbAddress],
      ['db', '10.73.0.5'],
      ['w1', '10.73.0.11'],
      ['w2', '10.73.0.12'],
      ['w3', '10.73.0.13'],
      ['n1', '10.73.0.21'],
      ['n2', '10.73.0.22'],
      ['n3', '10.73.0.23'],
    ];
    for (const [name, address] of layout) hosts[name] = addHost(name, address);
    postgres = new Postgres(hosts['db']!, join(dir, 'pg'));
    await postgres.start();
    sql = new pg.Client({ connectionString: postgres.adminUrl });
    sql.on('error', () => undefined); // the restart below cuts it; the checks reconnect
    for (const node of [1, 2, 3]) nats.set(node, startNats(hosts[`n${node}`]!, node, dir));
    for (const node of [1, 2, 3])
      await portOpen(hosts[`n${node}`]!.address, 4222, `nats-server n${node}`, 20_000, nats.get(node));
    // JetStream answers once the cluster has elected its meta leader: only then can the first
    // Waypost host create the stream with three replicas.
    nc = await connect({ servers: natsUrls().split(','), maxReconnectAttempts: -1 });
    const deadline = Date.now() + 30_000;
    for (;;) {
      try {
        await (await nc.jetstreamManager()).getAccountInfo();
        break;
      } catch (error) {
        if (Date.now() > deadline)
          throw new Error(`JetStream of the NATS cluster never answered: ${String(error)}`, { cause: error });
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
    for (const name of ['w1', 'w2', 'w3']) await bootWaypost(name);
    haproxy = startHaproxy(hosts['lb']!);
    await portOpen(lbAddress, lbPort, 'haproxy', 20_000, haproxy);
    await receiver.start();
  }, 120_000);

  afterAll(async () => {
    for (const feed of feeds.values()) feed.close();
    await nc?.close().catch(() => undefined);
    await sql?.end().catch(() => undefined);
    await receiver.stop();
    for (const process of [...waypost.values(), ...nats.values(), ...(haproxy ? [haproxy] : [])])
      await stop(process, 'SIGKILL');
    postgres?.stop();
    removeHosts();
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  /** Every host's output and exit, for a failure message. */
  const outputs = () =>
    [...waypost]
      .map(([name, p]) => {
        const exit = p.child.exitCode ?? p.child.signalCode;
        return `--- ${name}${exit === null ? '' : ` (exited: ${exit})`} ---\n${p.output().slice(-3000)}`;
      })
      .join('\n') + `\n--- haproxy ---\n${haproxy.output().slice(-2000)}`;
  /** Runs a step; its failure carries every host's output. */
  const step = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      throw new Error(`${(error as Error).message}\n${outputs()}`, { cause: error });
    }
  };

  it(
    'stores, decides and delivers every upload once through SIGKILL, a NATS node down, a cut link and a PostgreSQL restart',
    () =>
      step(async () => {
        const fleet = new Fleet(lb, DEVICES);
        const began = Date.now();
        const mark = (what: string) => console.log(`${((Date.now() - began) / 1000).toFixed(1)} s: ${what}`);
        const killed = { resentInDoubt: 0 }; // what w1 had counted when it was killed
        const steady: string[] = [];
        for (let k = 0; k < DEVICES.length; k++)
          expect((await admin('/api/geofences', 'POST', depotOf(k))).status, 'depot geofence').toBe(201);
        const hook = await admin('/api/webhooks', 'POST', {
          url: receiver.url,
          events: ['geofence.enter', 'geofence.exit'],
        });
        expect(hook.status, await hook.clone().text()).toBe(201);

        // Temporary geofences over the depots, created and deleted through the load balancer all along.
        const windows: FenceWindow[] = [];
        let churning = true;
        const churn = (async () => {
          for (let n = 0; churning; n++) {
            const fence = { ...depotOf(n % DEVICES.length), identifier: `tmp-${n}` };
            const from = Date.now();
            expect((await admin('/api/geofences', 'POST', fence)).status, `create ${fence.identifier}`).toBe(201);
            await new Promise((resolve) => setTimeout(resolve, 700));
            const deleted = await admin(`/api/geofences/${fence.identifier}`, 'DELETE');
            // 404: an earlier attempt deleted it and its answer was lost.
            expect([200, 404], `delete ${fence.identifier}`).toContain(deleted.status);
            windows.push({ identifier: fence.identifier, from, to: Date.now() });
          }
        })();

        // One dashboard per host, pinned to it, reconnecting as EventSource does, for the whole run.
        for (const name of ['w1', 'w2', 'w3']) {
          feeds.set(name, new PinnedFeed(name, hostUrl(name), TOKEN));
          feeds.get(name)!.start();
        }
        try {
          for (const feed of feeds.values()) await feed.connected(10_000);
          fleet.start();
          await fleet.progress(20, 'before any fault');
          // The steady state: every host's feed is told every record stored so far, all of it live.
          const beforeFaults = new Map(fleet.acked);
          for (const feed of feeds.values()) await feed.reached(beforeFaults, 30_000);
          steady.push(...[...feeds.values()].flatMap(toldLiveSoFar));

          killed.resentInDoubt = await resentInDoubt(hostUrl('w1'), METRICS_TOKEN);
          // Killed mid-upload: frozen first until an upload waits on it, so that the kill always
          // cuts some device's upload off (on a fast machine uploads are done within milliseconds,
          // and a kill at a random moment could fall between them: then no device saw a failure).
          mark('w1 frozen');
          waypost.get('w1')!.child.kill('SIGSTOP');
          await fleet.stuck(1_000, 'w1 frozen');
          mark('w1 killed');
          await stop(waypost.get('w1')!, 'SIGKILL');
          await fleet.progress(20, 'w1 killed');
          await bootWaypost('w1');
          mark('w1 back');

          await stop(nats.get(2)!, 'SIGTERM');
          await fleet.progress(20, 'NATS n2 stopped');
          nats.set(2, startNats(hosts['n2']!, 2, dir));
          await portOpen(hosts['n2']!.address, 4222, 'nats-server n2 restarted');

          // The cable goes back after CUT_MS whatever happens meanwhile; the others go on without w2.
          mark('w2 cut');
          setLink(hosts['w2']!, false);
          const restored = new Promise((resolve) => setTimeout(resolve, CUT_MS)).then(() =>
            setLink(hosts['w2']!, true),
          );
          await fleet.progress(20, 'w2 cut off').finally(() => restored);
          await restored;
          await fleet.progress(10, 'w2 back');

          mark('PostgreSQL restarts');
          postgres.restart();
          await fleet.progress(20, 'PostgreSQL restarted');
          // The run crosses at least one fence that comes and goes (it goes on until one is crossed).
          await receiver.waitFor(1, isTemporaryCrossing, 60_000);
        } finally {
          churning = false;
          await churn;
          await fleet.stop();
        }

        // Every host's live feed was told every record, wherever it was taken, whatever failed.
        for (const feed of feeds.values()) await feed.reached(fleet.acked, 30_000);
        for (const feed of feeds.values()) feed.close();

        // Everything delivered: the outbox empties (the killed host's leases run out first).
        await sql.connect();
        const emptyBy = Date.now() + 90_000;
        for (;;) {
          const left = await sql.query(
            `SELECT sink_id, device_id, type, attempts, last_error FROM outbox ORDER BY seq LIMIT 5`,
          );
          if (left.rows.length === 0) break;
          if (Date.now() > emptyBy)
            throw new Error(`outbox not empty after 90 s: ${JSON.stringify(left.rows)}\n${outputs()}`);
          await new Promise((resolve) => setTimeout(resolve, 500));
        }

        const history = await historyCrossings(sql);
        const jetstream = await streamCrossings(nc!, 'WAYPOST');
        // Every request that reached the receiver, as it came (it answers each 204).
        const webhook = receiver.requests.map((r) => JSON.parse(r.body) as CrossingEvent);
        let inDoubt = killed.resentInDoubt;
        for (const name of ['w1', 'w2', 'w3']) inDoubt += await resentInDoubt(hostUrl(name), METRICS_TOKEN);
        const problems = [
          ...steady,
          ...(await storedOnce(sql, fleet)),
          ...(await ledgersComplete(lb, TOKEN, fleet)),
          ...crossingsMatchTracks(history, fleet, windows),
          ...webhookOncePerDevice(history, webhook, inDoubt),
          ...[...feeds.values()].flatMap((feed) => feedCoversEverything(feed, fleet.acked)),
          ...deliveredInOrder('jetstream', history, jetstream),
        ];
        // What the run went through, for the log (the problems above are what fails it).
        const repeats = webhook.length - new Set(webhook.map((e) => e.id)).size;
        console.log(
          `webhook: ${webhook.length} requests, ${repeats} repeated, ${inDoubt} sent again in doubt; ` +
            [...feeds]
              .map(
                ([name, feed]) =>
                  `feed ${name}: ${feed.connections} connections (at ${feed.connectedAt.map((t) => `${((t - began) / 1000).toFixed(1)} s`).join(', ')}), ${feed.events.filter((e) => e.catchUp).length} catch-ups, ${feed.events.filter((e) => e.replay).length} replayed`,
              )
              .join('; '),
        );
        expect(problems.join('\n')).toBe('');
        // No host died of the faults (only w1, by the test's SIGKILL, and it was restarted).
        for (const [name, process] of waypost)
          expect(process.child.exitCode ?? process.child.signalCode, `${name} exited`).toBeNull();
        // The run did exercise what it claims: crossings of fences that came and went, and failures.
        expect(history.some((e) => e.data.geofence.identifier.startsWith('tmp-'))).toBe(true);
        expect(fleet.attempts.some((a) => a.outcome !== '200')).toBe(true);
      }),
    420_000,
  );
});
