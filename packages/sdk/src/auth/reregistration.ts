import { LOCATIONS_PATH } from '../config/transistor-token.js';
import type { TransistorAuthorizationToken } from '../config/input-types.js';
import type { HttpEvent } from '../events/types.js';
import {
  DUMMY_TOKEN,
  destroyToken,
  register,
  savedRegistration,
  type RegistrationDeps,
} from './transistor-registration.js';

export interface ReRegistrationDeps extends RegistrationDeps {
  /** Where uploads go now. */
  uploadUrl: () => string | null;
  /** Applies a new token the way `transistorAuthorizationToken` does. */
  apply: (token: TransistorAuthorizationToken) => Promise<void>;
  /** Uploads the queue again once the new token is in place. */
  retry: () => Promise<unknown>;
}

/**
 * The anchor demo server's "register again" signal: an upload answered 406 while uploads go to a
 * server this device registered with (findOrCreateTransistorAuthorizationToken) registers anew,
 * applies the new token and uploads again. Once per failure streak: a server that keeps answering
 * 406 gets one new registration, then ordinary failures until an upload succeeds.
 */
export class ReRegistration {
  private triedSinceSuccess = false;
  private running: Promise<void> | null = null;

  constructor(private readonly deps: ReRegistrationDeps) {}

  onHttp(event: HttpEvent): void {
    if (event.success) {
      this.triedSinceSuccess = false;
      return;
    }
    if (event.status !== 406 || this.triedSinceSuccess || this.running) return;
    this.running = this.run()
      .catch((error: unknown) =>
        this.deps.logger.error('Auth', `registering again failed: ${(error as Error)?.message ?? String(error)}`),
      )
      .finally(() => {
        this.running = null;
      });
  }

  /** Resolves when no re-registration is running (tests, close()). */
  async idle(): Promise<void> {
    await this.running;
  }

  private async run(): Promise<void> {
    const registration = await savedRegistration(this.deps.kv);
    if (!registration || this.deps.uploadUrl() !== registration.url + LOCATIONS_PATH) return;
    this.triedSinceSuccess = true;
    this.deps.logger.warn('Auth', `406 from ${new URL(registration.url).host}: registering again`);
    await destroyToken(this.deps.kv, registration.url);
    const token = await register(this.deps, registration);
    if (token.accessToken === DUMMY_TOKEN) return;
    await this.deps.apply(token);
    await this.deps.retry();
  }
}
