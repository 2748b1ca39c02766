import type { HttpConfig } from '../config/types.js';

/**
 * Request compression (issue 20). A server says which request codings it decodes with an
 * Accept-Encoding header on its responses (RFC 7694); with `compress: 'auto'` bodies are gzipped
 * only once the upload URL's server has said gzip, so a server that never says it receives exactly
 * what it always did. A 415 or 400 to a compressed request (a proxy that strips the header, a
 * server that lied) turns compression off for that URL for the life of the instance: the same
 * batch is sent again uncompressed at once, before anything else is concluded from the answer.
 */
export class RequestCodings {
  private readonly advertised = new Set<string>();
  private readonly refused = new Set<string>();

  shouldCompress(policy: HttpConfig['compress'], url: string): boolean {
    if (policy === 'none' || this.refused.has(url)) return false;
    return policy === 'gzip' || this.advertised.has(url);
  }

  /** What a response of `url` said (its Accept-Encoding header, if any). */
  heard(url: string, acceptEncoding: string | undefined): void {
    if (acceptEncoding === undefined) return;
    if (acceptsGzip(acceptEncoding)) this.advertised.add(url);
    else this.advertised.delete(url);
  }

  /** A compressed request to `url` was refused as such: send it plain from now on. */
  refuse(url: string): void {
    this.refused.add(url);
  }
}

/** Whether a compressed request's answer says the coding was the problem (and not the records). */
export const refusesCoding = (status: number): boolean => status === 415 || status === 400;

/** `gzip` in an Accept-Encoding list, with a q-value above 0 (`gzip;q=0` means "not gzip"). */
export function acceptsGzip(header: string): boolean {
  return header.split(',').some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    if (coding!.trim() !== 'gzip') return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

/** gzip with the platform's CompressionStream (Node 18+, every current browser). */
export async function gzip(body: string | Uint8Array): Promise<Uint8Array> {
  const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new CompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}
