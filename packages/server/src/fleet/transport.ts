import type { FleetEvent } from './fleet-event.js';

/** What a transport needs of an event besides its JSON: its outbox columns, so the body is never parsed again. */
export type EventHead = Pick<FleetEvent, 'id' | 'device' | 'type'>;

/**
 * Sends events to one sink. `send` resolves once the sink has taken the event (a 2xx answer, an
 * MQTT PUBACK, a JetStream ack) and rejects otherwise; the delivery worker retries.
 */
export interface Transport {
  send(event: EventHead, body: string): Promise<void>;
  close(): Promise<void>;
}
