import type { Authorizer } from '../auth/authorizer.js';
import type { Config } from '../config/types.js';
import type { DeviceInfo } from '../device.js';
import { JSON_CONTENT_TYPE, mergeHeaders } from '../http/headers.js';
import type { Transport } from '../ports/transport.js';
import type { LogQueryInput } from '../queue/query.js';
import type { SdkLogger } from './logger.js';
import { SDK_VERSION, uploadLogFile } from './upload-log.js';

export interface LogUploaderDeps {
  transport: Transport;
  logger: SdkLogger;
  authorizer: Authorizer;
  config: () => Config;
  device: DeviceInfo;
}

/** Log upload: POSTs the SDK log, gzipped, as multipart form data with the device's description. */
export class LogUploader {
  constructor(private readonly deps: LogUploaderDeps) {}

  async upload(url: string, query?: LogQueryInput): Promise<{ status: number }> {
    const { http } = this.deps.config();
    const { device } = this.deps;
    const headers = mergeHeaders(http.headers, await this.deps.authorizer.headers());
    delete headers[Object.keys(JSON_CONTENT_TYPE)[0]!];
    const response = await uploadLogFile(this.deps.transport, {
      url,
      logText: await this.deps.logger.text(query),
      fields: {
        device_id: device.uuid,
        model: device.model,
        manufacturer: device.manufacturer,
        platform: device.platform,
        version: device.version,
        sdk_version: SDK_VERSION,
      },
      headers,
      timeoutMs: http.timeout,
    });
    this.deps.logger.info('Log', `log uploaded to ${new URL(url).host} (${response.status})`);
    return { status: response.status };
  }
}
