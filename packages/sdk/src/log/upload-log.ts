import { WaypostError } from '../errors.js';
import type { HttpResponse, Transport } from '../ports/transport.js';

export const SDK_VERSION = '0.1.0';

/** gzip through the Web Compression Streams API (Node 18+, browsers): no platform import. */
export async function gzip(text: string): Promise<Uint8Array> {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** A multipart/form-data body: text fields, then one file part. */
export function multipartBody(
  fields: Record<string, string>,
  file: { name: string; filename: string; contentType: string; data: Uint8Array },
  boundary: string,
): Uint8Array {
  const encoder = new TextEncoder();
  let head = '';
  for (const [name, value] of Object.entries(fields)) {
    head += `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  }
  head += `--${boundary}\r\nContent-Disposition: form-data; name="${file.name}"; filename="${file.filename}"\r\nContent-Type: ${file.contentType}\r\n\r\n`;
  const tail = `\r\n--${boundary}--\r\n`;
  const parts = [encoder.encode(head), file.data, encoder.encode(tail)];
  const body = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let offset = 0;
  for (const part of parts) {
    body.set(part, offset);
    offset += part.byteLength;
  }
  return body;
}

export interface LogUploadRequest {
  url: string;
  logText: string;
  fields: Record<string, string>;
  headers: Record<string, string>;
  timeoutMs: number;
}

/** POSTs the log gzipped as a form upload; resolves on 2xx, rejects with what went wrong. */
export async function uploadLogFile(transport: Transport, request: LogUploadRequest): Promise<HttpResponse> {
  if (!/^https?:\/\//.test(request.url)) {
    throw new WaypostError('INVALID_CONFIG', `uploadLog: ${JSON.stringify(request.url)} is not an http(s) URL.`);
  }
  const boundary = `waypost-${globalThis.crypto.randomUUID()}`;
  const body = multipartBody(
    request.fields,
    { name: 'log', filename: 'waypost-log.txt.gz', contentType: 'application/gzip', data: await gzip(request.logText) },
    boundary,
  );
  const response = await transport.send({
    url: request.url,
    method: 'POST',
    headers: { ...request.headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
    body,
    timeoutMs: request.timeoutMs,
  });
  if (response.status < 200 || response.status >= 300) {
    throw new WaypostError(
      'NETWORK',
      `uploadLog: ${new URL(request.url).host} answered ${response.status}; the log is kept.`,
    );
  }
  return response;
}
