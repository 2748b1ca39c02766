/** Response bodies beyond this are cut: a misbehaving server must not exhaust a device's memory. */
export const MAX_RESPONSE_BYTES = 1024 * 1024;

/** One decoder for every response: decode() without `stream` keeps no state between calls. */
const decoder = new TextDecoder();

/**
 * Reads a fetch response's body as UTF-8 text, at most `maxBytes` of it: the stream is cancelled
 * as soon as the bound is reached, so an endless or huge body costs no more than the bound. Shared
 * by the Node and browser transports (both have WHATWG streams and TextDecoder).
 */
export async function readBoundedText(response: Response, maxBytes = MAX_RESPONSE_BYTES): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
    if (size >= maxBytes) {
      await reader.cancel();
      break;
    }
  }
  // One chunk (a short answer, the usual case) is decoded where it lies, with no copy.
  if (chunks.length === 1 && size < maxBytes) return decoder.decode(chunks[0]);
  const all = new Uint8Array(Math.min(size, maxBytes));
  let at = 0;
  for (const chunk of chunks) {
    const part = chunk.subarray(0, all.length - at);
    all.set(part, at);
    at += part.length;
  }
  return decoder.decode(all);
}
