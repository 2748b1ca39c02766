import * as client from 'openid-client';
import type { OidcOptions } from './oidc-options.js';

/** Seconds each request to the provider may take (discovery, token, userinfo). */
const PROVIDER_TIMEOUT_S = 10;

/**
 * The provider's configuration (OpenID discovery), read on the first login and kept; a failed
 * discovery is tried again at the next login (the provider may have been down at start).
 */
export function providerOf(oidc: OidcOptions): () => Promise<client.Configuration> {
  let config: Promise<client.Configuration> | null = null;
  return () => {
    config ??= client
      .discovery(
        oidc.issuer,
        oidc.clientId,
        undefined,
        oidc.clientSecret ? client.ClientSecretBasic(oidc.clientSecret) : client.None(),
        {
          timeout: PROVIDER_TIMEOUT_S,
          // oidc-options.ts allows plain http only on a loopback address.
          ...(oidc.issuer.protocol === 'http:' ? { execute: [client.allowInsecureRequests] } : {}),
        },
      )
      .catch((error: unknown) => {
        config = null;
        throw error;
      });
    return config;
  };
}

/** A fresh state, nonce and PKCE verifier, and the provider's URL to send the browser to. */
export async function startLogin(
  config: client.Configuration,
  oidc: OidcOptions,
  redirectUri: string,
): Promise<{ url: URL; state: string; nonce: string; verifier: string }> {
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: oidc.scopes,
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  return { url, state, nonce, verifier };
}

/**
 * The callback: the code exchanged with the verifier, state and nonce checked and the ID token
 * verified by openid-client; the claims are the ID token's and the userinfo endpoint's (where
 * providers put the claims a scope asks for).
 */
export async function finishLogin(
  config: client.Configuration,
  callbackUrl: URL,
  checks: { state: string; nonce: string; verifier: string },
): Promise<Record<string, unknown>> {
  const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
    pkceCodeVerifier: checks.verifier,
    expectedState: checks.state,
    expectedNonce: checks.nonce,
    idTokenExpected: true,
  });
  const idClaims = tokens.claims()!;
  if (!config.serverMetadata().userinfo_endpoint) return { ...idClaims };
  const info = await client.fetchUserInfo(config, tokens.access_token, idClaims.sub);
  // fetchUserInfo checked its subject is the ID token's.
  return { ...idClaims, ...info };
}
