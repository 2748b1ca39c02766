import { parseEventFilter, type EventType } from '../fleet/fleet-event.js';
import type { SinkKind } from '../fleet/sinks-store.js';
import { newWebhookSecret } from '../fleet/sinks-store.js';
import { natsUrls, ServerOptionError, sinkUrl } from '../option-checks.js';
import { badRequest } from '../errors.js';
import type { ServerErrorCode } from '../error-codes.js';

const MAX_URL_CHARS = 2048;
/** What POST /api/sinks takes (anything else is a typo: 400 INVALID_OPTION). */
export const SINK_KEYS = ['kind', 'url', 'events', 'secret'];
export const SINK_KINDS: readonly SinkKind[] = ['webhook', 'mqtt', 'nats'];

/** The same URL rules as the command line's --webhook, --mqtt and --nats. */
const PROTOCOLS: Record<SinkKind, readonly string[]> = {
  webhook: ['http:', 'https:'],
  mqtt: ['mqtt:', 'mqtts:', 'ws:', 'wss:'],
  nats: ['nats:', 'tls:'],
};

export function webhookUrl(value: unknown): string {
  if (typeof value !== 'string' || value.length > MAX_URL_CHARS)
    throw badRequest('INVALID_WEBHOOK', 'url must be an http(s) URL');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw badRequest('INVALID_WEBHOOK', 'url must be an http(s) URL');
  }
  // Loopback and private addresses are allowed on purpose: the admin points it at their own backend.
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw badRequest('INVALID_WEBHOOK', 'url must be an http(s) URL');
  return value;
}

export function webhookSecret(value: unknown): string {
  if (value === undefined) return newWebhookSecret();
  const key = typeof value === 'string' && value.startsWith('whsec_') ? value.slice(6) : '';
  const bytes = /^[A-Za-z0-9+/]+={0,2}$/.test(key) ? Buffer.from(key, 'base64').length : 0;
  if (bytes < 16 || bytes > 64)
    throw badRequest('INVALID_WEBHOOK', 'secret must be whsec_ and 16 to 64 bytes in base64');
  return value as string;
}

export function eventsOf(value: unknown, code: ServerErrorCode = 'INVALID_WEBHOOK'): EventType[] | null {
  try {
    return parseEventFilter(value);
  } catch (error) {
    // Its message names the field already ("events must be ...", "events: unknown event type ...").
    throw badRequest(code, (error as Error).message);
  }
}

/** A broker's URL, checked as --mqtt and --nats are (a NATS cluster: URLs joined by commas). */
function brokerUrl(kind: 'mqtt' | 'nats', value: unknown): string {
  const rule = `url must be a ${kind === 'mqtt' ? 'mqtt(s):// or ws(s)://' : 'nats:// or tls://'} URL`;
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_URL_CHARS)
    throw badRequest('INVALID_SINK', rule);
  try {
    return kind === 'nats' ? natsUrls('url', value) : sinkUrl('url', value, PROTOCOLS.mqtt);
  } catch (error) {
    if (error instanceof ServerOptionError) throw badRequest('INVALID_SINK', rule);
    throw error;
  }
}

/** The body of POST /api/sinks: a webhook (with its secret, given or generated) or a broker. */
export function sinkInput(body: { kind?: unknown; url?: unknown; events?: unknown; secret?: unknown }): {
  kind: SinkKind;
  url: string;
  secret: string | null;
  events: EventType[] | null;
} {
  const kind = body.kind;
  if (typeof kind !== 'string' || !SINK_KINDS.includes(kind as SinkKind))
    throw badRequest('INVALID_SINK', 'kind must be webhook, mqtt or nats');
  if (kind === 'webhook')
    return { kind, url: webhookUrl(body.url), secret: webhookSecret(body.secret), events: eventsOf(body.events) };
  if (body.secret !== undefined) throw badRequest('INVALID_SINK', 'secret is for webhooks only');
  return {
    kind: kind as 'mqtt' | 'nats',
    url: brokerUrl(kind as 'mqtt' | 'nats', body.url),
    secret: null,
    events: eventsOf(body.events, 'INVALID_SINK'),
  };
}
