/**
 * The HTTP port: one function. Adapters only perform the request; every decision about what an
 * outcome means is taken by the core (queue/outcome.ts).
 */
export type HttpMethod = 'POST' | 'PUT' | 'PATCH';

export interface HttpRequest {
  url: string;
  method: HttpMethod;
  headers: Record<string, string>;
  body: string | Uint8Array;
  /** The request is aborted, and fails with code TIMEOUT, once this many milliseconds pass. */
  timeoutMs: number;
}

export interface HttpResponse {
  status: number;
  /** The response body as text, truncated to a bounded size by the adapter. */
  text: string;
  /** Response headers, names in lower case (Retry-After is read from them); adapters may omit them. */
  headers?: Readonly<Record<string, string>>;
}

export interface Transport {
  /**
   * Resolves with any HTTP response, whatever its status. Rejects only when no response arrived:
   * with a WaypostError of code TIMEOUT or NETWORK.
   */
  send(request: HttpRequest): Promise<HttpResponse>;
}
