import { destroyToken, findOrCreateToken } from '../auth/transistor-registration.js';
import type { TransistorAuthorizationToken } from '../config/input-types.js';
import type { DeviceInfo } from '../device.js';
import type { SdkLogger } from '../log/logger.js';
import type { KeyValueStore } from '../ports/store.js';
import type { Transport } from '../ports/transport.js';
import type { ConfigSession } from '../session/config-session.js';

/** Registration with a server speaking the anchor demo server's device API. */
export interface RegistrationMethods {
  /** Registers this device with a server speaking the anchor demo server's device API. */
  findOrCreateTransistorAuthorizationToken(
    orgname: string,
    username: string,
    url?: string,
  ): Promise<TransistorAuthorizationToken>;
  destroyTransistorAuthorizationToken(url?: string): Promise<void>;
}

export interface RegistrationGroupDeps {
  transport: Transport;
  kv: KeyValueStore;
  device: DeviceInfo;
  log: SdkLogger;
  session: Pick<ConfigSession, 'config'>;
}

export function registrationGroup({ transport, kv, device, log, session }: RegistrationGroupDeps): RegistrationMethods {
  const current = () => {
    const { http, authorization } = session.config;
    return { url: http.url, ...authorization };
  };
  return {
    findOrCreateTransistorAuthorizationToken: (orgname, username, url) =>
      findOrCreateToken({ transport, kv, device, logger: log, current }, orgname, username, url),
    destroyTransistorAuthorizationToken: (url) => destroyToken(kv, url),
  };
}
