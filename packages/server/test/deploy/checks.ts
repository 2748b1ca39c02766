import type { NatsConnection } from 'nats';
import type pg from 'pg';
import { insideAt, type Fleet } from './fleet-sim.js';

/**
 * What the deployment test asserts at the end, each check answering the problems it found (empty:
 * none), each naming the device, the sequence numbers and the hosts that took them.
 */
export interface CrossingEvent {
  id: string;
  type: string;
  device: string;
  receivedAt: string;
  data: { geofence: { identifier: string }; location: { uuid: string } };
}

/** When a temporary geofence existed: created no earlier than `from`, deleted no later than `to`. */
export interface FenceWindow {
  identifier: string;
  from: number;
  to: number;
}

const sequenceOf = (uuid: string): number => Number(uuid.slice(uuid.lastIndexOf('-') + 1));

/** Every acknowledged record stored exactly once, nothing else stored. */
export async function storedOnce(sql: pg.Client, fleet: Fleet): Promise<string[]> {
  const rows = await sql.query<{ device_id: string; sequence: string; n: string }>(
    `SELECT device_id, sequence, COUNT(*) AS n FROM locations GROUP BY device_id, sequence`,
  );
  const stored = new Map<string, Map<number, number>>();
  for (const row of rows.rows) {
    const perDevice = stored.get(row.device_id) ?? new Map<number, number>();
    perDevice.set(Number(row.sequence), Number(row.n));
    stored.set(row.device_id, perDevice);
  }
  const problems: string[] = [];
  for (const [device, highest] of fleet.acked) {
    const perDevice = stored.get(device) ?? new Map<number, number>();
    for (let sequence = 1; sequence <= highest; sequence++) {
      const n = perDevice.get(sequence) ?? 0;
      if (n !== 1)
        problems.push(
          `${device} seq ${sequence} acknowledged, stored ${n} times; attempts:\n${fleet.historyOf(device, sequence)}`,
        );
    }
    for (const sequence of perDevice.keys())
      if (sequence > highest) problems.push(`${device} seq ${sequence} stored but never acknowledged`);
  }
  return problems;
}

/** Every device's ledger accounts for every sequence number it sent (none missing). */
export async function ledgersComplete(baseUrl: string, token: string, fleet: Fleet): Promise<string[]> {
  const problems: string[] = [];
  for (const [device, highest] of fleet.acked) {
    const response = await fetch(`${baseUrl}/api/devices/${device}/ledger`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const ledger = (await response.json()) as { highestSequence: number; missing: number; missingRanges: unknown };
    if (ledger.highestSequence !== highest || ledger.missing !== 0)
      problems.push(
        `${device}: ledger highest ${ledger.highestSequence} (sent ${highest}), missing ${ledger.missing} ${JSON.stringify(ledger.missingRanges)}`,
      );
  }
  return problems;
}

/** The geofence events the history kept (every process writes there), oldest first. */
export async function historyCrossings(sql: pg.Client): Promise<CrossingEvent[]> {
  const rows = await sql.query<{ body: string }>(
    `SELECT body FROM fleet_events WHERE type LIKE 'geofence.%' ORDER BY seq`,
  );
  return rows.rows.map((row) => JSON.parse(row.body) as CrossingEvent);
}

/**
 * The crossings of each device's own depot (there all along) are exactly those of its track: an
 * enter at the first record of each run inside, an exit at the first outside. The temporary
 * fences' events alternate enter/exit per device, and each was decided while its fence existed.
 */
export function crossingsMatchTracks(history: CrossingEvent[], fleet: Fleet, windows: FenceWindow[]): string[] {
  const problems: string[] = [];
  fleet.devices.forEach((device, k) => {
    const expected: string[] = [];
    for (let sequence = 1; sequence <= fleet.acked.get(device)!; sequence++) {
      const before = sequence > 1 && insideAt(sequence - 1);
      if (insideAt(sequence) !== before) expected.push(`${insideAt(sequence) ? 'enter' : 'exit'} @${sequence}`);
    }
    const actual = history
      .filter((e) => e.device === device && e.data.geofence.identifier === `depot-${k}`)
      .map((e) => `${e.type.slice('geofence.'.length)} @${sequenceOf(e.data.location.uuid)}`);
    if (actual.join() !== expected.join()) {
      const first = actual.findIndex((a, i) => a !== expected[i]);
      const at = Number(/@(\d+)/.exec(actual[first] ?? expected[first] ?? '@0')![1]);
      problems.push(
        `${device} depot-${k}: crossings [${actual.join(', ')}], expected [${expected.join(', ')}]; attempts around seq ${at}:\n${fleet.historyOf(device, at)}`,
      );
    }
  });
  const presence = new Map<string, string>();
  for (const event of history) {
    const fence = windows.find((w) => w.identifier === event.data.geofence.identifier);
    if (!fence) continue;
    const key = `${event.device} ${fence.identifier}`;
    const type = event.type.slice('geofence.'.length);
    if ((presence.get(key) ?? 'exit') === type)
      problems.push(`${key}: ${type} twice in a row (seq ${sequenceOf(event.data.location.uuid)})`);
    presence.set(key, type);
    const decided = Date.parse(event.receivedAt);
    if (decided < fence.from || decided > fence.to)
      problems.push(
        `${key}: ${type} decided at ${event.receivedAt}, outside the fence's life ${new Date(fence.from).toISOString()}..${new Date(fence.to).toISOString()} (seq ${sequenceOf(event.data.location.uuid)})`,
      );
  }
  return problems;
}

/**
 * A sink got every crossing of the history exactly once, each device's in the history's order
 * (JetStream drops a repeated Nats-Msg-Id).
 */
export function deliveredInOrder(
  sink: string,
  history: CrossingEvent[],
  received: { id: string; device: string }[],
): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  const firsts: { id: string; device: string }[] = [];
  for (const event of received) {
    if (seen.has(event.id)) {
      problems.push(`${sink}: ${event.device} event ${event.id} received twice`);
      continue;
    }
    seen.add(event.id);
    firsts.push(event);
  }
  const devices = new Set([...history.map((e) => e.device), ...firsts.map((e) => e.device)]);
  for (const device of devices) {
    const want = history.filter((e) => e.device === device).map((e) => e.id);
    const got = firsts.filter((e) => e.device === device).map((e) => e.id);
    if (want.join() !== got.join()) {
      const missing = want.filter((id) => !seen.has(id));
      problems.push(
        `${sink}: ${device} got ${got.length} of ${want.length} crossings${missing.length ? `, missing ${missing.slice(0, 5).join(' ')}` : ', out of order'}`,
      );
    }
  }
  return problems;
}

/** Every geofence event in the stream, in stream order, as (id, device). */
export async function streamCrossings(nc: NatsConnection, stream: string): Promise<{ id: string; device: string }[]> {
  const jsm = await nc.jetstreamManager();
  const total = (await jsm.streams.info(stream)).state.messages;
  const consumer = await nc.jetstream().consumers.get(stream, { filterSubjects: 'waypost.>' });
  const messages = await consumer.consume();
  const timer = setTimeout(() => void messages.close(), 20_000);
  const events: { id: string; device: string; type: string }[] = [];
  let read = 0;
  for await (const message of messages) {
    const event = message.json<{ id: string; device: string; type: string }>();
    if (message.headers?.get('Nats-Msg-Id') !== event.id)
      throw new Error(`JetStream message ${event.id} without its id`);
    events.push(event);
    if (++read === total) break;
  }
  clearTimeout(timer);
  if (read < total) throw new Error(`JetStream: read ${read} of ${total} messages of ${stream} in 20 s`);
  return events.filter((e) => e.type.startsWith('geofence.')).map(({ id, device }) => ({ id, device }));
}

/**
 * The webhook receiver, deduplicating by webhook-id as Standard Webhooks receivers do, processed
 * every crossing once, each device's in the history's order; and what came twice came right after
 * itself (nothing of the device between the two copies: the one event whose outcome its sender
 * never recorded), no more often than the hosts said they sent an event again in doubt.
 */
export function webhookOncePerDevice(
  history: CrossingEvent[],
  received: { id: string; device: string }[],
  resentInDoubt: number,
): string[] {
  const problems: string[] = [];
  const label = new Map(
    history.map((e) => [
      e.id,
      `${e.type.slice('geofence.'.length)} ${e.data.geofence.identifier} @${sequenceOf(e.data.location.uuid)}`,
    ]),
  );
  const name = (id: string) => label.get(id) ?? id;
  let repeats = 0;
  const devices = new Set([...history.map((e) => e.device), ...received.map((e) => e.device)]);
  for (const device of devices) {
    const raw = received.filter((e) => e.device === device).map((e) => e.id);
    const collapsed = raw.filter((id, i) => i === 0 || raw[i - 1] !== id);
    repeats += raw.length - collapsed.length;
    const want = history.filter((e) => e.device === device).map((e) => e.id);
    if (collapsed.join() === want.join()) continue;
    const at = collapsed.findIndex((id, i) => id !== want[i]);
    const first = at === -1 ? collapsed.length : at;
    problems.push(
      `webhook: ${device} received [${collapsed
        .slice(Math.max(0, first - 2), first + 3)
        .map(name)
        .join(', ')}] from crossing ${first + 1}, expected [${want
        .slice(Math.max(0, first - 2), first + 3)
        .map(name)
        .join(', ')}] (${collapsed.length} received of ${want.length})`,
    );
  }
  if (repeats > resentInDoubt)
    problems.push(`webhook: ${repeats} events came twice, the hosts sent only ${resentInDoubt} again in doubt`);
  return problems;
}

/** How many fleet events a host sent again in doubt (its /metrics, read with the metrics token), over all sinks. */
export async function resentInDoubt(url: string, metricsToken: string): Promise<number> {
  const text = await (
    await fetch(`${url}/metrics`, {
      headers: { authorization: `Bearer ${metricsToken}` },
      signal: AbortSignal.timeout(5000),
    })
  ).text();
  return [...text.matchAll(/^waypost_sink_resent_in_doubt_total\{[^}]*\} (\d+)$/gm)].reduce(
    (n, m) => n + Number(m[1]),
    0,
  );
}
