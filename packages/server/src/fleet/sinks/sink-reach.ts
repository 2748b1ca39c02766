import type { UserPrincipal } from '../../accounts/roles.js';
import { HttpError } from '../../errors.js';
import type { AllowList } from './address-policy.js';
import { sinkHosts } from './connect.js';
import { createSinkGuard, SinkAddressBlocked } from './sink-guard.js';

/** A host that takes longer to resolve when a sink is made is let through: the connect-time check decides. */
const RESOLVE_WAIT_MS = 3000;

/** Every user but an owner makes confined sinks; the admin token and owners reach anywhere, as before. */
export const confinesSinks = (reader: { kind: 'admin' } | UserPrincipal): boolean =>
  reader.kind === 'user' && reader.role !== 'owner';

/**
 * Refuses a confined sink whose URL names a host inside the server's network (400
 * SINK_ADDRESS_BLOCKED): a literal address in any spelling, or a name resolving to one. A name
 * that does not resolve now is accepted; each connection is checked again (sink-guard.ts).
 */
export async function checkSinkReach(url: string, allow: AllowList): Promise<void> {
  const guard = createSinkGuard(allow);
  for (const host of sinkHosts(url)) {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        guard.resolve(host),
        new Promise((resolve) => {
          timer = setTimeout(resolve, RESOLVE_WAIT_MS);
        }),
      ]);
    } catch (error) {
      if (error instanceof SinkAddressBlocked)
        throw new HttpError(
          400,
          'SINK_ADDRESS_BLOCKED',
          'A sink may not reach loopback, link-local, private or reserved addresses unless the owner allowed them (allowPrivateSinks)',
        );
    } finally {
      clearTimeout(timer);
    }
  }
}
