import { createHmac, timingSafeEqual } from 'node:crypto';

/** The key of a Standard Webhooks secret: the base64 after `whsec_`. */
function keyOf(secret: string): Buffer {
  return Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
}

/**
 * The Standard Webhooks signature of a message: `v1,` and the base64 HMAC-SHA256 of
 * "<webhook-id>.<webhook-timestamp>.<body>" under the secret's key.
 */
export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  return `v1,${createHmac('sha256', keyOf(secret)).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** Whether a webhook-signature header (space-separated signatures) holds a valid one (receivers, tests). */
export function verifyWebhook(secret: string, id: string, timestamp: number, body: string, header: string): boolean {
  const expected = Buffer.from(signWebhook(secret, id, timestamp, body));
  return header.split(' ').some((candidate) => {
    const given = Buffer.from(candidate);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
