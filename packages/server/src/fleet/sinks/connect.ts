import type { Sink } from '../sinks-store.js';
import type { Transport } from '../transport.js';
import type { BrokerNames } from './broker-options.js';
import { mqttTransport } from './mqtt.js';
import { natsTransport } from './nats.js';
import { webhookTransport } from './webhook.js';

/** The transport of a sink, by its kind. */
export function connectSink(sink: Sink, now: () => number, names: BrokerNames): Transport {
  if (sink.kind === 'mqtt') return mqttTransport(sink.url, names.mqttTopicPrefix);
  if (sink.kind === 'nats') return natsTransport(sink.url, names);
  return webhookTransport(sink.url, sink.secret ?? '', now);
}
