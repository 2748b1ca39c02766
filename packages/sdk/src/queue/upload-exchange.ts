import type { Config } from '../config/types.js';
import { encodeBody, refusesCoding, RequestCodings } from '../http/compression.js';
import { LEDGER_EPOCHS_HEADER, LEDGER_HEADER } from '../ledger/dropped-header.js';
import type { Tombstones } from '../ledger/tombstones.js';
import type { SdkLogger } from '../log/logger.js';
import type { HttpResponse, Transport } from '../ports/transport.js';
import { loggableUrl } from './describe.js';

/**
 * One upload request and what its answer teaches about the server: which request codings it takes
 * (http.compress, RequestCodings: columnar, gzip) and whether it reads ledger reports
 * (Waypost-Ledger). A coded body refused as such (415, 400) is sent again at once in the next
 * coding the server takes, plain last, before anything else is concluded from the answer; that
 * refused request is logged, not reported on onHttp.
 */
export class UploadExchange {
  /** What each upload URL's server said it decodes (http.compress: 'auto'). */
  private readonly codings = new RequestCodings();

  constructor(
    private readonly transport: Transport,
    private readonly logger: SdkLogger,
    private readonly tombstones: Tombstones,
  ) {}

  /** `canonical`: the body is JSON.stringify's text (Payload.canonical), which spares the coder a check. */
  async send(
    http: Config['http'],
    headers: Record<string, string>,
    body: string,
    canonical = false,
  ): Promise<HttpResponse> {
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
      this.tombstones.heard(url, response.headers?.[LEDGER_HEADER], response.headers?.[LEDGER_EPOCHS_HEADER]);
      return response;
    };
    for (const coding of this.codings.candidates(http.compress, url)) {
      // null: this body does not round trip in that coding (the encoder checked); try the next.
      const payload = await encodeBody(coding, body, canonical);
      if (!payload) continue;
      const response = await send(payload, { 'Content-Encoding': coding });
      if (!refusesCoding(response.status)) return response;
      this.codings.refuse(url, coding);
      const next = this.codings.candidates(http.compress, url)[0] ?? 'plain';
      this.logger.warn(
        'HTTP',
        `${response.status} to a ${coding === 'gzip' ? 'gzipped' : coding} body: ${loggableUrl(url)} gets ${next === 'gzip' ? 'gzipped' : next} bodies from now on`,
      );
    }
    return send(body, {});
  }
}
