import { ServerOptionError } from '../../option-checks.js';
import type { RetryPolicy } from '../retry-policy.js';

/**
 * Where fleet events go on a shared broker: two Waypost instances (staging and production) on one
 * MQTT broker or NATS server keep apart by giving each its own prefix and stream.
 */
export interface BrokerNames {
  /** MQTT topics are `<prefix>/<device>/<type>`; default "waypost". */
  mqttTopicPrefix: string;
  /** The JetStream stream; default "WAYPOST". */
  natsStream: string;
  /** NATS subjects are `<prefix>.<device>.<type>` (the stream takes `<prefix>.>`); default "waypost". */
  natsSubjectPrefix: string;
  /**
   * JetStream drops a message whose Nats-Msg-Id it saw within this window. An event whose ack was
   * lost is sent again after the retry spacing, at most retryMaxDelayMs later: the window covers
   * that (and a publish's timeout), never JetStream's default 2 minutes alone.
   */
  natsDuplicateWindowMs: number;
}

export const BROKER_DEFAULTS = { mqttTopicPrefix: 'waypost', natsStream: 'WAYPOST', natsSubjectPrefix: 'waypost' };
const JETSTREAM_DEFAULT_WINDOW_MS = 2 * 60_000;
/** A publish waits this long for its ack before it counts as failed (nats.ts). */
export const NATS_PUBLISH_TIMEOUT_MS = 10_000;

const MAX_NAME_CHARS = 200;

function checked(name: string, value: string | undefined, fallback: string, valid: RegExp, rule: string): string {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || value.length > MAX_NAME_CHARS || !valid.test(value))
    throw new ServerOptionError(name, `must be ${rule}, got ${JSON.stringify(String(value).slice(0, MAX_NAME_CHARS))}`);
  return value;
}

export function brokerNamesOf(
  options: { mqttTopicPrefix?: string; natsStream?: string; natsSubjectPrefix?: string },
  retry: RetryPolicy,
): BrokerNames {
  return {
    // Levels of printable text without MQTT's wildcards, no empty level.
    mqttTopicPrefix: checked(
      'mqttTopicPrefix',
      options.mqttTopicPrefix,
      BROKER_DEFAULTS.mqttTopicPrefix,
      // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
      /^[^/+#\u0000-\u001f\u007f]+(\/[^/+#\u0000-\u001f\u007f]+)*$/,
      'topic levels without + # or empty levels ("staging/waypost")',
    ),
    natsStream: checked(
      'natsStream',
      options.natsStream,
      BROKER_DEFAULTS.natsStream,
      /^[A-Za-z0-9_-]+$/,
      'a JetStream stream name (letters, digits, _ and -)',
    ),
    natsSubjectPrefix: checked(
      'natsSubjectPrefix',
      options.natsSubjectPrefix,
      BROKER_DEFAULTS.natsSubjectPrefix,
      /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/,
      'subject tokens of letters, digits, _ and - joined by dots ("staging.waypost")',
    ),
    natsDuplicateWindowMs: Math.max(JETSTREAM_DEFAULT_WINDOW_MS, retry.maxDelayMs + NATS_PUBLISH_TIMEOUT_MS + 60_000),
  };
}
