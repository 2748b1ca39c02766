import { isRole, type Role } from '../accounts/roles.js';
import { ServerOptionError } from '../option-checks.js';

/** startServer()'s single sign-on options (issue 33): OpenID Connect, authorization code with PKCE. */
export interface OidcServerOptions {
  /** The OpenID Provider's issuer URL (https; http only on a loopback address). Single sign-on is off without it. */
  oidcIssuer?: string;
  /** This server's client id at the provider (needed with oidcIssuer). */
  oidcClientId?: string;
  /** The client secret; default env WAYPOST_OIDC_CLIENT_SECRET; none: a public client (PKCE alone). */
  oidcClientSecret?: string;
  /** The redirect URI registered at the provider; default this server's own /api/oidc/callback as the browser reached it. */
  oidcRedirectUri?: string;
  /** The scopes asked for, space-separated; default "openid profile email". */
  oidcScopes?: string;
  /** The claim naming the user's role (a string or a list); default "waypost_role". */
  oidcRoleClaim?: string;
  /** Claim values to roles ({ "fleet-admins": "owner" }); a value that is a role's name is that role. */
  oidcRoleMap?: Record<string, string>;
  /** The claim listing the orgs the user is limited to ("*": all devices); unset: no scope from the provider. */
  oidcOrgsClaim?: string;
  /** The claim listing the device groups the user is limited to ("*": all devices). */
  oidcGroupsClaim?: string;
  /** The claim naming the user (unique and stable at the provider); default "sub". Users are named "sso:<value>". */
  oidcUserClaim?: string;
}

export interface OidcOptions {
  issuer: URL;
  clientId: string;
  clientSecret: string | null;
  redirectUri: string | null;
  scopes: string;
  roleClaim: string;
  roleMap: Readonly<Record<string, Role>>;
  orgsClaim: string | null;
  groupsClaim: string | null;
  userClaim: string;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);
const CLAIM = /^[A-Za-z0-9_.:/-]{1,200}$/;

function claimName(name: string, value: string | undefined, fallback: string | null): string | null {
  if (value === undefined) return fallback;
  if (!CLAIM.test(value)) throw new ServerOptionError(name, 'must be a claim name (letters, digits, _ . : / -)');
  return value;
}

function httpsUrl(name: string, value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ServerOptionError(name, `must be a URL, got ${JSON.stringify(value.slice(0, 200))}`);
  }
  // Plain http only where nothing on the way can read or change it (a provider on this machine).
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.has(url.hostname))) {
    throw new ServerOptionError(name, 'must be an https URL (http only on a loopback address)');
  }
  return url;
}

/** The single sign-on settings, or null when no issuer is given. */
export function oidcOf(options: OidcServerOptions, env: NodeJS.ProcessEnv = process.env): OidcOptions | null {
  if (options.oidcIssuer === undefined) {
    const given = Object.entries(options).filter(([key, value]) => key.startsWith('oidc') && value !== undefined);
    const stray = given[0]?.[0];
    if (stray) throw new ServerOptionError(stray, 'needs oidcIssuer');
    return null;
  }
  const issuer = httpsUrl('oidcIssuer', options.oidcIssuer);
  if (!options.oidcClientId) throw new ServerOptionError('oidcClientId', 'is needed with oidcIssuer');
  const scopes = options.oidcScopes ?? 'openid profile email';
  if (!scopes.split(' ').includes('openid')) throw new ServerOptionError('oidcScopes', 'must include openid');
  const roleMap: Record<string, Role> = {};
  for (const [value, role] of Object.entries(options.oidcRoleMap ?? {})) {
    if (!isRole(role)) throw new ServerOptionError('oidcRoleMap', `maps ${JSON.stringify(value)} to no role: ${role}`);
    roleMap[value] = role;
  }
  return {
    issuer,
    clientId: options.oidcClientId,
    clientSecret: options.oidcClientSecret ?? env.WAYPOST_OIDC_CLIENT_SECRET ?? null,
    redirectUri:
      options.oidcRedirectUri === undefined ? null : httpsUrl('oidcRedirectUri', options.oidcRedirectUri).href,
    scopes,
    roleClaim: claimName('oidcRoleClaim', options.oidcRoleClaim, 'waypost_role')!,
    roleMap,
    orgsClaim: claimName('oidcOrgsClaim', options.oidcOrgsClaim, null),
    groupsClaim: claimName('oidcGroupsClaim', options.oidcGroupsClaim, null),
    userClaim: claimName('oidcUserClaim', options.oidcUserClaim, 'sub')!,
  };
}
