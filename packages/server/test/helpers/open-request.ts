import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import type { Json } from './client.js';

/** The answer to a request whose body is still being sent, and the request, to finish or drop. */
export interface OpenRequest {
  request: ClientRequest;
  answer: Promise<{ status: number; body: Json }>;
}

/**
 * Sends the headers and `first` of a body declared `declared` bytes long, and leaves the rest
 * unsent: an answer can only come from a server that decided without the rest of the body.
 */
export function openRequest(
  url: string,
  init: { method: string; path: string; headers: Record<string, string>; first: Buffer | string; declared: number },
): OpenRequest {
  const request = httpRequest(`${url}${init.path}`, {
    method: init.method,
    headers: { ...init.headers, 'content-length': String(init.declared) },
  });
  const answer = new Promise<{ status: number; body: Json }>((resolve, reject) => {
    request.on('response', (response: IncomingMessage) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, body: JSON.parse(text) as Json }));
    });
    request.on('error', reject);
  });
  request.write(init.first);
  return { request, answer };
}
