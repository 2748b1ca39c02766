/** RFC 4122 v4 uuids from the platform's Web Crypto (Node 20, browsers and React Native polyfills). */
export function randomUuid(): string {
  return globalThis.crypto.randomUUID();
}
