import type { FleetEvent } from './fleet-event.js';

/** What a transport needs of an event besides its JSON: its outbox columns, so the body is never parsed again. */
export type EventHead = Pick<FleetEvent, 'id' | 'device' | 'type'>;

/**
 * Sends events to one sink. `send` resolves once the sink has taken the event (a 2xx answer, an
 * MQTT PUBACK, a JetStream ack) and rejects otherwise; the delivery worker retries. `deadlineMs`:
 * the attempt is over by then, one way or the other (a webhook's request is abandoned), so the
 * sink's lease, which outlasts it, covers every attempt whole.
 */
export interface Transport {
  send(event: EventHead, body: string, deadlineMs: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * A failure in which the sink certainly did not take the event: it answered with a refusal (an
 * HTTP status that is not 2xx) or could not be reached at all (connection refused, no route). Any
 * other failure (no answer in time, a connection lost after the request went out) leaves it in
 * doubt: the receiver may have it.
 */
export class NotDelivered extends Error {}

/** Errors of a connection that never opened: nothing was sent (SINK_ADDRESS_BLOCKED: sinks/sink-guard.ts). */
const NEVER_CONNECTED = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'SINK_ADDRESS_BLOCKED',
]);

export function neverSent(error: unknown): boolean {
  return NEVER_CONNECTED.has(String((error as { code?: unknown })?.code));
}
