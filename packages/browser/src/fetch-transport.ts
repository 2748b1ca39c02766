import {
  createFetchTransport as createCoreFetchTransport,
  type HttpRequest,
  type Transport,
} from '@waypost/sdk/internal';

/** Browsers refuse keepalive requests whose bodies together exceed 64 KiB. */
export const KEEPALIVE_MAX_BYTES = 64 * 1024;

const byteLength = (body: string | Uint8Array) =>
  typeof body === 'string' ? new TextEncoder().encode(body).byteLength : body.byteLength;

/** While the page is hidden it may be unloaded at any moment: keepalive lets a small request finish. */
function pageHidden(): boolean {
  const doc = (globalThis as { document?: { visibilityState?: string } }).document;
  return doc?.visibilityState === 'hidden';
}

/**
 * The core's fetch transport with what a page adds: no credentials of the page's origin ride along
 * (authorization is in the headers), and a request sent while the page is hidden uses keepalive
 * when its body fits the browser's keepalive quota, so the upload survives the page being closed.
 */
export function createFetchTransport(options: { isHidden?: () => boolean } = {}): Transport {
  const isHidden = options.isHidden ?? pageHidden;
  return createCoreFetchTransport({
    requestInit: (request: HttpRequest) => ({
      credentials: 'omit',
      keepalive: isHidden() && byteLength(request.body) <= KEEPALIVE_MAX_BYTES,
    }),
  });
}
