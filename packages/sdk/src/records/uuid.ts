/**
 * Record uuids (RFC 9562 version 8): 90 random bits drawn once per process (and again if the
 * counter ever wraps), then a 32-bit counter. They stay unique per device, which is all the
 * server's dedup asks (device, uuid), and they cost nothing in the columnar upload coding (issue
 * 34): consecutive records differ by one, where random v4 uuids cost 16 incompressible bytes
 * each. A uuid given to insertLocation is kept as it is.
 */
let prefix: Uint8Array | null = null;
let counter = 0;

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

function drawPrefix(): Uint8Array {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(12));
  bytes[6] = 0x80 | (bytes[6]! & 0x0f); // version 8
  bytes[8] = 0x80 | (bytes[8]! & 0x3f); // variant 10
  return bytes;
}

export function recordUuid(): string {
  if (prefix === null || counter > 0xffffffff) {
    prefix = drawPrefix();
    counter = 0;
  }
  const n = counter++;
  let hex = '';
  for (const byte of prefix) hex += HEX[byte]!;
  hex += n.toString(16).padStart(8, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
