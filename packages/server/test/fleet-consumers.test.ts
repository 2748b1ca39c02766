// Fleet events as real consumers take them (issue 28 item 6): the standardwebhooks package
// verifies each webhook delivery; two instances on one MQTT broker and one NATS server keep apart
// by their topic prefix, stream and subjects; JetStream's duplicate window covers the retry spacing.
import { randomUUID } from 'node:crypto';
import mqtt, { type MqttClient } from 'mqtt';
import { AckPolicy, connect, type NatsConnection } from 'nats';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { natsDeviceToken } from '../src/fleet/sinks/broker-names.js';
import { backends } from './helpers/backends.js';
import { record, startTestServer, type TestServer } from './helpers/client.js';
import { WebhookReceiver } from './helpers/webhook-receiver.js';

const MQTT_URL = 'mqtt://127.0.0.1:1883';
const NATS_URL = 'nats://127.0.0.1:4222';
const run = randomUUID().slice(0, 8);
const MINUTE_NS = 60_000_000_000;

/** Resolves with the first `count` messages; rejects naming what was awaited after 20 s. */
function firstMessages<T>(what: string, count: number, subscribe: (push: (item: T) => void) => void): Promise<T[]> {
  return new Promise((resolve, reject) => {
    const items: T[] = [];
    const timer = setTimeout(
      () => reject(new Error(`${what}: ${items.length} of ${count} messages came in 20 s`)),
      20_000,
    );
    subscribe((item) => {
      items.push(item);
      if (items.length === count) {
        clearTimeout(timer);
        resolve(items);
      }
    });
  });
}

describe('fleet events read by real consumers', () => {
  let staging: TestServer;
  let production: TestServer;
  let subscriber: MqttClient;
  let nc: NatsConnection;
  const receiver = new WebhookReceiver();
  const stream = `WAYPOST_STAGING_${run}`;
  const subjectPrefix = `staging${run}.waypost`;
  const topicPrefix = `staging-${run}/waypost`;

  beforeAll(async () => {
    await receiver.start();
    subscriber = await mqtt.connectAsync(MQTT_URL, { clientId: `consumer-${run}` });
    nc = await connect({ servers: NATS_URL });
    const common = { mqttUrl: MQTT_URL, natsUrl: NATS_URL, sinkEvents: ['location'], deliveryPollMs: 100 };
    staging = await startTestServer(backends[0]!, {
      ...common,
      webhooks: [receiver.url],
      mqttTopicPrefix: topicPrefix,
      natsStream: stream,
      natsSubjectPrefix: subjectPrefix,
      retryMaxDelayMs: 30 * 60_000,
    });
    production = await startTestServer(backends[0]!, common);
  });
  afterAll(async () => {
    await staging?.stop();
    await production?.stop();
    await subscriber?.endAsync();
    await (await nc?.jetstreamManager())?.streams.delete(stream).catch(() => undefined);
    await nc?.close();
    await receiver.stop();
  });

  it('keeps staging and production apart on one broker and one NATS server', async () => {
    const device = `apart-${run}`;
    await subscriber.subscribeAsync(`${topicPrefix}/#`, { qos: 1 });
    await subscriber.subscribeAsync(`waypost/${device}/#`, { qos: 1 });
    const topics = firstMessages<string>('MQTT', 2, (push) => subscriber.on('message', (topic) => push(topic)));
    // Each sink delivers on its own: the NATS sink opens its stream and publishes after its first
    // connection, maybe after the webhook. Both instances' publications, seen as they happen.
    const published = firstMessages<string>('NATS', 2, (push) => {
      for (const subject of [`${subjectPrefix}.${natsDeviceToken(device)}.>`, `waypost.${natsDeviceToken(device)}.>`])
        nc.subscribe(subject, { max: 1, callback: (_error, message) => push(message.subject) });
    });
    await nc.flush();
    expect((await staging.post('/locations', { location: [record(`s-${run}`)], device_id: device })).status).toBe(200);
    expect((await production.post('/locations', { location: [record(`p-${run}`)], device_id: device })).status).toBe(
      200,
    );
    // Each instance's event on its own topic: one on the staging prefix, one on the default.
    expect((await topics).sort()).toEqual([`${topicPrefix}/${device}/location`, `waypost/${device}/location`].sort());

    // The staging stream holds staging's event only, on its subjects.
    await receiver.waitFor(1);
    expect((await published).sort()).toEqual(
      [`${subjectPrefix}.${natsDeviceToken(device)}.location`, `waypost.${natsDeviceToken(device)}.location`].sort(),
    );
    const jsm = await nc.jetstreamManager();
    const consumer = await jsm.consumers.add(stream, { ack_policy: AckPolicy.Explicit });
    const messages = await nc.jetstream().consumers.get(stream, consumer.name);
    const batch = await messages.fetch({ max_messages: 10, expires: 5000 });
    const subjects: string[] = [];
    for await (const message of batch) {
      subjects.push(message.subject);
      message.ack();
    }
    expect(subjects).toEqual([`${subjectPrefix}.${device}.location`]);
    const info = await jsm.streams.info(stream);
    expect(info.config.subjects).toEqual([`${subjectPrefix}.>`]);
    // A redelivery after the longest retry spacing (30 min here) is still recognised as one.
    expect(info.config.duplicate_window).toBeGreaterThanOrEqual(30 * MINUTE_NS);
    // The default stream's window was widened too (retryMaxDelayMs 10 min by default).
    expect((await jsm.streams.info('WAYPOST')).config.duplicate_window).toBeGreaterThanOrEqual(10 * MINUTE_NS);
  });

  it('signs every webhook delivery so that the standardwebhooks package verifies it', async () => {
    await receiver.waitFor(1);
    const secret = staging.sinks.find((sink) => sink.kind === 'webhook')!.secret!;
    const verifier = new Webhook(secret);
    const delivery = receiver.requests.find((r) => r.status === 204)!;
    const headers = {
      'webhook-id': String(delivery.headers['webhook-id']),
      'webhook-timestamp': String(delivery.headers['webhook-timestamp']),
      'webhook-signature': String(delivery.headers['webhook-signature']),
    };
    const event = verifier.verify(delivery.body, headers) as { type: string; id: string };
    expect(event).toMatchObject({ type: 'location', id: headers['webhook-id'] });
    // A body changed on the way fails verification.
    expect(() => verifier.verify(delivery.body.replace('location', 'lokation'), headers)).toThrow();
  });

  it('refuses a prefix or stream name that a broker would read as a wildcard or separator', async () => {
    for (const [option, value] of [
      ['mqttTopicPrefix', 'staging/+/waypost'],
      ['mqttTopicPrefix', 'staging//waypost'],
      ['natsStream', 'WAYPOST.STAGING'],
      ['natsSubjectPrefix', 'staging.>'],
    ] as const) {
      await expect(startTestServer(backends[0]!, { [option]: value }), option).rejects.toMatchObject({
        code: 'INVALID_OPTION',
        option,
      });
    }
  });
});
