import type { Sink } from '../sinks-store.js';
import type { Transport } from '../transport.js';
import type { AllowList } from './address-policy.js';
import type { BrokerNames } from './broker-options.js';
import { natsServers } from './broker-names.js';
import { mqttTransport } from './mqtt.js';
import { natsTransport } from './nats.js';
import { createSinkGuard, type SinkGuard } from './sink-guard.js';
import { webhookTransport } from './webhook.js';

/** The hosts a sink's URL names (a NATS cluster: one per node), as the WHATWG parser reads them. */
export const sinkHosts = (url: string): string[] => natsServers(url).map((one) => new URL(one).hostname);

/** A transport that never connects: the sink's literal address is inside and cannot change. */
const refusing = (error: Error): Transport => ({
  send: () => Promise.reject(error),
  close: async () => undefined,
});

/**
 * The transport of a sink, by its kind. A confined sink (made by an operator, issue 45) connects
 * only to addresses outside the server's network or on the owner's allow-list, checked at every
 * connection; others (the owner's, the command line's) reach anywhere, as their makers decide.
 */
export function connectSink(sink: Sink, now: () => number, names: BrokerNames, allow: AllowList): Transport {
  let guard: SinkGuard | null = null;
  if (sink.confined) {
    guard = createSinkGuard(allow);
    try {
      for (const host of sinkHosts(sink.url)) guard.checkLiteral(host);
    } catch (error) {
      return refusing(error as Error);
    }
  }
  if (sink.kind === 'mqtt') return mqttTransport(sink.url, names.mqttTopicPrefix, guard);
  if (sink.kind === 'nats') return natsTransport(sink.url, names, guard);
  return webhookTransport(sink.url, sink.secret ?? '', now, guard);
}
