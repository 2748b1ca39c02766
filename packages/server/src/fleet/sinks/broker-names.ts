/**
 * Device ids are free text; topics and subjects give some characters a meaning. Those are
 * percent-encoded (with `%` itself), so every device has its own topic level or subject token.
 */
const encodeWith =
  (special: RegExp) =>
  (deviceId: string): string =>
    deviceId.replace(special, (c) =>
      [...Buffer.from(c, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
    );

/** MQTT: `/` separates levels, `+` and `#` are wildcards, NUL is not allowed. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what must be encoded
export const mqttDeviceLevel = encodeWith(/[%/+#\u0000]/g);
/** NATS: `.` separates tokens, `*` and `>` are wildcards, whitespace and control characters are not allowed. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what must be encoded
export const natsDeviceToken = encodeWith(/[%.*>\s\u0000-\u001f\u007f]/g);

export const mqttTopic = (prefix: string, device: string, type: string): string =>
  `${prefix}/${mqttDeviceLevel(device)}/${type}`;
export const natsSubject = (prefix: string, device: string, type: string): string =>
  `${prefix}.${natsDeviceToken(device)}.${type}`;

/** The servers of a NATS URL list (`nats://a:4222,nats://b:4222`: the nodes of a cluster). */
export const natsServers = (urls: string): string[] => urls.split(',').map((url) => url.trim());

/** A URL (or a comma-separated list of them) as shown in lists and logs: without user and password. */
export function redactedUrl(url: string): string {
  if (url.includes(',')) return natsServers(url).map(redactedUrl).join(',');
  try {
    const parsed = new URL(url);
    if (!parsed.username && !parsed.password) return url;
    parsed.username = '';
    parsed.password = '';
    return parsed.toString();
  } catch {
    return '(invalid URL)';
  }
}
