import type { Config } from '../config/types.js';
import { gzip, refusesCoding, RequestCodings } from '../http/compression.js';
import { LEDGER_HEADER } from '../ledger/dropped-header.js';
import type { Tombstones } from '../ledger/tombstones.js';
import type { SdkLogger } from '../log/logger.js';
import type { HttpResponse, Transport } from '../ports/transport.js';
import { loggableUrl } from './describe.js';

/**
 * One upload request and what its answer teaches about the server: whether it takes gzip bodies
 * (http.compress, RequestCodings) and whether it reads ledger reports (Waypost-Ledger). A
 * compressed body refused as such (415, 400) is sent again plain at once, before anything else is
 * concluded from the answer; that refused request is logged, not reported on onHttp.
 */
export class UploadExchange {
  /** What each upload URL's server said about gzip (http.compress: 'auto'). */
  private readonly codings = new RequestCodings();

  constructor(
    private readonly transport: Transport,
    private readonly logger: SdkLogger,
    private readonly tombstones: Tombstones,
  ) {}

  async send(http: Config['http'], headers: Record<string, string>, body: string): Promise<HttpResponse> {
    const url = http.url!;
    const send = async (payload: string | Uint8Array, coding: Record<string, string>) => {
      const response = await this.transport.send({
        url,
        method: http.method,
        headers: { ...headers, ...coding },
        body: payload,
        timeoutMs: http.timeout,
      });
      this.codings.heard(url, response.headers?.['accept-encoding']);
      this.tombstones.heard(url, response.headers?.[LEDGER_HEADER]);
      return response;
    };
    if (!this.codings.shouldCompress(http.compress, url)) return send(body, {});
    const response = await send(await gzip(body), { 'Content-Encoding': 'gzip' });
    if (!refusesCoding(response.status)) return response;
    this.codings.refuse(url);
    this.logger.warn('HTTP', `${response.status} to a gzipped body: ${loggableUrl(url)} gets plain bodies from now on`);
    return send(body, {});
  }
}
