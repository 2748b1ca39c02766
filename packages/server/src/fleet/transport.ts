import type { FleetEvent } from './fleet-event.js';

/**
 * Sends events to one sink. `send` resolves once the sink has taken the event (a 2xx answer, an
 * MQTT PUBACK, a JetStream ack) and rejects otherwise; the delivery worker retries.
 */
export interface Transport {
  send(event: FleetEvent, body: string): Promise<void>;
  close(): Promise<void>;
}
