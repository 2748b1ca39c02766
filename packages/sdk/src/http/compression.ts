import type { HttpConfig } from '../config/types.js';
import { type ColumnarVersion, encodeColumnar } from '../codec/columnar.js';

/**
 * The columnar content codings (docs/wire-format.md): columnar bytes, then raw deflate. One token
 * per version of the columnar bytes, so that a server says which versions it decodes and a server
 * from before version 2 is only ever sent version 1 (before version 3, version 2).
 */
export const COLUMNAR_CODING = 'x-waypost-columnar';
export const COLUMNAR_CODING_2 = 'x-waypost-columnar-2';
export const COLUMNAR_CODING_3 = 'x-waypost-columnar-3';
export const COLUMNAR_TOKENS: Readonly<Record<string, ColumnarVersion>> = {
  [COLUMNAR_CODING]: 1,
  [COLUMNAR_CODING_2]: 2,
  [COLUMNAR_CODING_3]: 3,
};

/** The request codings the SDK sends, best first. */
export type RequestCoding = typeof COLUMNAR_CODING_3 | typeof COLUMNAR_CODING_2 | typeof COLUMNAR_CODING | 'gzip';
const ALL: readonly RequestCoding[] = [COLUMNAR_CODING_3, COLUMNAR_CODING_2, COLUMNAR_CODING, 'gzip'];

/**
 * Request compression (issues 20, 34). A server says which request codings it decodes with an
 * Accept-Encoding header on its responses (RFC 7694). With `compress: 'auto'` a body is sent in
 * the columnar coding once the upload URL's server has said `x-waypost-columnar`, else gzipped
 * once it has said gzip, so a server that never says either receives exactly what it always did.
 * A 415 or 400 to a coded request (a proxy that strips the header, a server that lied, a decoder
 * that refused the body) turns that coding off for the URL for the life of the instance: the same
 * batch is sent again at once in the next coding it takes (gzip, then plain).
 */
export class RequestCodings {
  private readonly advertised = new Map<string, Set<string>>();
  private readonly refused = new Map<string, Set<RequestCoding>>();

  /** The codings to try for `url`, best first; plain JSON follows them all. */
  candidates(policy: HttpConfig['compress'], url: string): RequestCoding[] {
    if (policy === 'none') return [];
    const said = this.advertised.get(url);
    const wanted: RequestCoding[] = policy === 'gzip' ? ['gzip'] : ALL.filter((c) => said?.has(c) === true);
    const refused = this.refused.get(url);
    return wanted.filter((coding) => refused?.has(coding) !== true);
  }

  /** What a response of `url` said (its Accept-Encoding header, if any). */
  heard(url: string, acceptEncoding: string | undefined): void {
    if (acceptEncoding === undefined) return;
    this.advertised.set(url, acceptedCodings(acceptEncoding));
  }

  /** A request to `url` in `coding` was refused as such: never that coding there again. */
  refuse(url: string, coding: RequestCoding): void {
    const refused = this.refused.get(url) ?? new Set();
    refused.add(coding);
    this.refused.set(url, refused);
  }
}

/** Whether a compressed request's answer says the coding was the problem (and not the records). */
export const refusesCoding = (status: number): boolean => status === 415 || status === 400;

/** The codings of an Accept-Encoding list with a q-value above 0 (`gzip;q=0` means "not gzip"). */
export function acceptedCodings(header: string): Set<string> {
  const codings = new Set<string>();
  for (const part of header.split(',')) {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (q === undefined || Number(q.slice(2)) > 0) codings.add(coding!.trim());
  }
  return codings;
}

/** What the core uses of node:zlib when it runs in Node. */
interface NodeZlib {
  gzip(data: Uint8Array, callback: (error: Error | null, result: Uint8Array) => void): void;
  deflateRawSync(data: Uint8Array): Uint8Array;
}

/**
 * node:zlib when the core runs in Node (process.getBuiltinModule: Node 20.16+, no import, so the
 * browser bundle is untouched), else undefined. In Node, CompressionStream is node:zlib behind web
 * stream adapters that cost more than the deflate itself on an upload's few kilobytes: node:zlib's
 * own calls give the same bytes for a third to a half of the CPU (see compressed()).
 */
const nodeZlib = (
  globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }
).process?.getBuiltinModule?.('node:zlib') as NodeZlib | undefined;

/**
 * `bytes` compressed: node:zlib in Node; elsewhere a CompressionStream written and read directly
 * (a Blob's stream piped through it and read by a Response costs several times the deflate itself).
 * In Node, a JSON body is gzipped on the thread pool (the asynchronous call: tens of kilobytes off
 * the event loop), and columnar bytes are deflated synchronously: they are a tenth of the JSON or
 * less, their deflate takes a fraction of the encoding that made them (which runs on the loop
 * too), and the asynchronous call's stream and thread-pool round trip cost more than the deflate
 * (wire-bytes bench: 1-3 us a record of 5-10). Same zlib, same settings: the same bytes.
 */
async function compressed(bytes: Uint8Array, format: 'gzip' | 'deflate-raw'): Promise<Uint8Array> {
  if (nodeZlib) {
    const zlib = nodeZlib;
    if (format === 'deflate-raw') return zlib.deflateRawSync(bytes);
    return new Promise((resolve, reject) => {
      zlib.gzip(bytes, (error, result) => (error ? reject(error) : resolve(result)));
    });
  }
  const stream = new CompressionStream(format);
  const writer = stream.writable.getWriter();
  // Not awaited: the writes complete as the reader below drains the stream; a failure surfaces there.
  void writer.write(bytes as Uint8Array<ArrayBuffer>).catch(() => {});
  void writer.close().catch(() => {});
  const reader = stream.readable.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    chunks.push(value);
    length += value.length;
  }
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/** gzip with node:zlib in Node, else the platform's CompressionStream (every current browser). */
export async function gzip(body: string | Uint8Array): Promise<Uint8Array> {
  return compressed(typeof body === 'string' ? new TextEncoder().encode(body) : body, 'gzip');
}

/**
 * The body in the columnar coding: its columnar bytes (checked by the encoder to decode to exactly
 * `body`) through raw deflate (node:zlib in Node; CompressionStream 'deflate-raw': Chromium 103, Firefox
 * 113, Safari 16.4), or null when the body does not round trip and must go another way.
 * `canonical`: `body` is known to be JSON.stringify's text (encodeColumnar then skips its check).
 */
export async function columnar(
  body: string,
  version: ColumnarVersion = 2,
  canonical = false,
): Promise<Uint8Array | null> {
  const bytes = encodeColumnar(body, version, canonical);
  return bytes && compressed(bytes, 'deflate-raw');
}

/** The body in `coding`, or null when it cannot be sent that way (`canonical`: see columnar()). */
export const encodeBody = (coding: RequestCoding, body: string, canonical = false): Promise<Uint8Array | null> =>
  coding === 'gzip' ? gzip(body) : columnar(body, COLUMNAR_TOKENS[coding], canonical);
