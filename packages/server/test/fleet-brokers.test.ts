import { randomUUID } from 'node:crypto';
import mqtt, { type MqttClient } from 'mqtt';
import { connect, type NatsConnection } from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mqttDeviceLevel, natsDeviceToken } from '../src/fleet/sinks/broker-names.js';
import { backends } from './helpers/backends.js';
import { record, startTestServer, type TestServer } from './helpers/client.js';
import { WebhookReceiver } from './helpers/webhook-receiver.js';

const MQTT_URL = 'mqtt://127.0.0.1:1883';
const NATS_URL = 'nats://127.0.0.1:4222';
const LON_METERS = 111_320 * Math.cos((48 * Math.PI) / 180);
const fix = (uuid: string, east: number, at: number) =>
  record(uuid, 48, 11 + east / LON_METERS, new Date(at).toISOString());

interface Event {
  id: string;
  type: string;
  device: string;
}

/** Resolves when `done` says so of the messages so far; rejects after a while. */
function collect<T>(subscribe: (push: (item: T) => void) => void, done: (items: T[]) => boolean): Promise<T[]> {
  return new Promise((resolve, reject) => {
    const items: T[] = [];
    const timer = setTimeout(() => reject(new Error(`only ${items.length} messages came`)), 20_000);
    subscribe((item) => {
      items.push(item);
      if (done(items)) {
        clearTimeout(timer);
        resolve(items);
      }
    });
  });
}

describe.each(backends)('fleet events to MQTT and NATS JetStream on $name', (backend) => {
  let server: TestServer;
  let subscriber: MqttClient;
  let nc: NatsConnection;
  const receiver = new WebhookReceiver();
  // A fresh device per run (the brokers outlive the tests), with characters topics and subjects reserve.
  const device = `bus.${randomUUID().slice(0, 8)}/a+b`;

  beforeAll(async () => {
    await receiver.start();
    subscriber = await mqtt.connectAsync(MQTT_URL, { clientId: `test-${randomUUID().slice(0, 8)}` });
    nc = await connect({ servers: NATS_URL });
    server = await startTestServer(backend, {
      mqttUrl: MQTT_URL,
      natsUrl: NATS_URL,
      webhooks: [receiver.url],
      sinkEvents: ['geofence.enter', 'geofence.exit', 'location'],
      deliveryPollMs: 200,
    });
    await server.admin('/api/geofences', {
      method: 'POST',
      body: { identifier: 'stop', latitude: 48, longitude: 11, radius: 50 },
    });
  });
  afterAll(async () => {
    await server.stop();
    await receiver.stop();
    await subscriber.endAsync();
    const jsm = await nc.jetstreamManager();
    await jsm.streams.purge('WAYPOST', { filter: `waypost.${natsDeviceToken(device)}.>` }).catch(() => undefined);
    await nc.close();
  });

  it('publishes the same events, in order, to an MQTT subscriber, a JetStream consumer and a webhook', async () => {
    expect(server.sinks.map((s) => s.kind).sort()).toEqual(['mqtt', 'nats', 'webhook']);
    const topic = `waypost/${mqttDeviceLevel(device)}/#`;
    await subscriber.subscribeAsync(topic, { qos: 1 });
    const viaMqtt = collect<{ topic: string; event: Event }>(
      (push) => subscriber.on('message', (t, payload) => push({ topic: t, event: JSON.parse(payload.toString()) })),
      (items) => items.length === 5,
    );
    // The NATS sink delivers on its own (it opens the stream at its first publication): its five
    // publications seen as they happen, so that the stream is there before a consumer is asked of it.
    const published = collect<string>(
      (push) => nc.subscribe(`waypost.${natsDeviceToken(device)}.>`, { callback: (_e, m) => push(m.subject) }),
      (items) => items.length === 5,
    );
    await nc.flush();
    const now = Date.now();
    const track = [fix('m0', 300, now - 180_000), fix('m1', 0, now - 120_000), fix('m2', 300, now - 60_000)];
    expect((await server.post('/locations', { location: track, device_id: device })).body.stored).toBe(3);

    const mqttEvents = await viaMqtt;
    expect(mqttEvents.map((m) => m.event.type)).toEqual([
      'location',
      'location',
      'geofence.enter',
      'location',
      'geofence.exit',
    ]);
    for (const { topic: t, event } of mqttEvents) expect(t).toBe(`waypost/${mqttDeviceLevel(device)}/${event.type}`);

    await receiver.waitFor(5);
    const webhookIds = receiver.accepted<Event>().map((e) => e.id);
    expect(mqttEvents.map((m) => m.event.id)).toEqual(webhookIds);

    // JetStream: the stream exists once the server published; an ordered consumer reads it back
    // (one filter subject: nats-server 2.9, Debian 12's, knows no list of them).
    expect(await published).toHaveLength(5);
    const js = nc.jetstream();
    const consumer = await js.consumers.get('WAYPOST', { filterSubjects: `waypost.${natsDeviceToken(device)}.>` });
    const messages = await consumer.consume();
    const viaNats: { subject: string; msgId: string | undefined; event: Event }[] = [];
    for await (const message of messages) {
      viaNats.push({
        subject: message.subject,
        msgId: message.headers?.get('Nats-Msg-Id'),
        event: message.json<Event>(),
      });
      if (viaNats.length === 5) break;
    }
    expect(viaNats.map((m) => m.event.id)).toEqual(webhookIds);
    for (const { subject, msgId, event } of viaNats) {
      expect(msgId).toBe(event.id);
      expect(subject).toBe(`waypost.${natsDeviceToken(device)}.${event.type}`);
    }
    // Published again under the same Nats-Msg-Id (a retry), JetStream keeps it once.
    const again = await js.publish(viaNats[0]!.subject, JSON.stringify(viaNats[0]!.event), {
      msgID: viaNats[0]!.msgId,
    });
    expect(again.duplicate).toBe(true);
  });
});
