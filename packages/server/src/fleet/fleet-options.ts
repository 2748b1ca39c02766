import type { EventType } from './fleet-event.js';
import type { RetryPolicy } from './retry-policy.js';
import type { AllowList } from './sinks/address-policy.js';
import type { BrokerNames } from './sinks/broker-options.js';

/** Fleet events (issue 21), resolved. */
export interface FleetOptions {
  webhooks: string[];
  mqttUrl: string | null;
  natsUrl: string | null;
  /** Topic prefix, stream, subject prefix and JetStream duplicate window. */
  brokers: BrokerNames;
  sinkEvents: EventType[] | null;
  /** Where an operator's sinks may reach inside the server's network (issue 45). */
  allowPrivateSinks: AllowList;
  silentAfterMs: number;
  lateAfterMs: number;
  retry: RetryPolicy;
  pollMs: number;
  leaseMs: number;
}
