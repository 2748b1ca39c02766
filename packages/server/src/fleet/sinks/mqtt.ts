import { randomBytes } from 'node:crypto';
import net from 'node:net';
import tls from 'node:tls';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { NotDelivered, type EventHead, type Transport } from '../transport.js';
import { mqttTopic } from './broker-names.js';
import { SINK_ADDRESS_BLOCKED } from './address-policy.js';
import type { SinkGuard } from './sink-guard.js';

const PUBLISH_TIMEOUT_MS = 10_000;
const CONNECT_TIMEOUT_MS = 5000;

/**
 * A client whose every connection resolves the broker's host through the guard (a confined sink):
 * mqtt.js's own TCP builder takes no `lookup`, so mqtt: and mqtts: get a stream built here; its
 * WebSocket builder passes wsOptions on to node:http, which does.
 */
function guardedClient(url: string, options: IClientOptions, guard: SinkGuard): MqttClient {
  const parsed = new URL(url);
  if (parsed.protocol === 'ws:' || parsed.protocol === 'wss:')
    return mqtt.connect(url, { ...options, wsOptions: { lookup: guard.lookup } });
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  const secure = parsed.protocol === 'mqtts:';
  const port = Number(parsed.port) || (secure ? 8883 : 1883);
  const stream = () =>
    secure
      ? tls.connect({ host, port, servername: net.isIP(host) ? undefined : host, lookup: guard.lookup })
      : net.connect({ host, port, lookup: guard.lookup });
  return new mqtt.MqttClient(stream, {
    ...options,
    ...(parsed.username ? { username: decodeURIComponent(parsed.username) } : {}),
    ...(parsed.password ? { password: decodeURIComponent(parsed.password) } : {}),
  });
}

/**
 * Publishes each event at QoS 1 to `<prefix>/<device>/<type>` (prefix default `waypost`): delivered once the broker's PUBACK
 * came. While the broker is away, sends fail at once (the delivery worker retries with backoff)
 * instead of piling up in the client's own offline queue.
 */
export function mqttTransport(url: string, topicPrefix: string, guard: SinkGuard | null): Transport {
  const options: IClientOptions = {
    clientId: `waypost-${randomBytes(6).toString('hex')}`,
    reconnectPeriod: 1000,
    connectTimeout: CONNECT_TIMEOUT_MS,
    queueQoSZero: false,
  };
  const client = guard ? guardedClient(url, options, guard) : mqtt.connect(url, options);
  // The first sends wait for the first connection (bounded by connectTimeout, or until the guard
  // refused it); later, while the broker is away, they fail at once.
  let firstDone = () => {};
  const firstConnect = new Promise<void>((resolve) => {
    firstDone = resolve;
    client.once('connect', () => resolve());
    setTimeout(resolve, CONNECT_TIMEOUT_MS).unref();
  });
  // Reconnects on its own; failed sends say why (a guarded connection refused: that error).
  let blocked: Error | null = null;
  client.on('error', (error) => {
    if ((error as { code?: unknown }).code !== SINK_ADDRESS_BLOCKED) return;
    blocked = error;
    firstDone();
  });
  client.on('connect', () => void (blocked = null));
  return {
    async send(event: EventHead, body: string): Promise<void> {
      await firstConnect;
      if (!client.connected) throw new NotDelivered(blocked?.message ?? 'MQTT broker not connected');
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
