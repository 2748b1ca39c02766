import { randomBytes } from 'node:crypto';
import mqtt from 'mqtt';
import { NotDelivered, type EventHead, type Transport } from '../transport.js';
import { mqttTopic } from './broker-names.js';

const PUBLISH_TIMEOUT_MS = 10_000;
const CONNECT_TIMEOUT_MS = 5000;

/**
 * Publishes each event at QoS 1 to `<prefix>/<device>/<type>` (prefix default `waypost`): delivered once the broker's PUBACK
 * came. While the broker is away, sends fail at once (the delivery worker retries with backoff)
 * instead of piling up in the client's own offline queue.
 */
export function mqttTransport(url: string, topicPrefix: string): Transport {
  const client = mqtt.connect(url, {
    clientId: `waypost-${randomBytes(6).toString('hex')}`,
    reconnectPeriod: 1000,
    connectTimeout: CONNECT_TIMEOUT_MS,
    queueQoSZero: false,
  });
  client.on('error', () => undefined); // reconnects on its own; failed sends say why
  // The first sends wait for the first connection (bounded by connectTimeout); later, while the
  // broker is away, they fail at once.
  const firstConnect = new Promise<void>((resolve) => {
    client.once('connect', () => resolve());
    setTimeout(resolve, CONNECT_TIMEOUT_MS).unref();
  });
  return {
    async send(event: EventHead, body: string): Promise<void> {
      await firstConnect;
      if (!client.connected) throw new NotDelivered('MQTT broker not connected');
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          client.publishAsync(mqttTopic(topicPrefix, event.device, event.type), body, { qos: 1 }),
          new Promise((_, reject) => {
            timer = setTimeout(() => reject(new Error('MQTT PUBACK timed out')), PUBLISH_TIMEOUT_MS);
          }),
        ]);
      } finally {
        clearTimeout(timer);
      }
    },
    async close() {
      await client.endAsync(true);
    },
  };
}
