import {
  createBackgroundGeolocation,
  ManualClock,
  ManualNetwork,
  type AuthorizationEvent,
  type BackgroundGeolocation,
  type HttpEvent,
} from '@waypost/node';
import { onTestFinished } from 'vitest';
import type { Backend } from './backends.js';
import { startTestServer, type TestServer } from './client.js';

export interface TokenRig {
  clock: ManualClock;
  /** Requires device tokens; access tokens live `ttlSeconds` on the rig's clock. */
  server: TestServer;
  /** Not readied: the test registers its device and readies it with the tokens. */
  bg: BackgroundGeolocation;
  /** Every onHttp event, in order. */
  http: HttpEvent[];
  /** Every onAuthorization event, in order. */
  auth: AuthorizationEvent[];
}

/**
 * A server that requires device tokens and an SDK on one ManualClock, so that the server's token
 * expiry and the SDK's view of it agree. Both are closed when the test finishes, the SDK first.
 */
export async function startTokenRig(backend: Backend, ttlSeconds: number): Promise<TokenRig> {
  const clock = new ManualClock(Date.UTC(2026, 10, 22, 12));
  const server = await startTestServer(backend, {
    requireTokens: true,
    accessTokenTtlSeconds: ttlSeconds,
    now: () => clock.now(),
  });
  const bg = await createBackgroundGeolocation({ database: ':memory:', network: new ManualNetwork('wifi'), clock });
  onTestFinished(async () => {
    await bg.close();
    await server.stop();
  });
  const http: HttpEvent[] = [];
  const auth: AuthorizationEvent[] = [];
  bg.onHttp((event) => http.push(event));
  bg.onAuthorization((event) => auth.push(event));
  return { clock, server, bg, http, auth };
}
