import { stringFlag } from '../args.js';
import { usageError } from '../errors.js';

/** The single sign-on flags (issue 33), each with the startServer() option it sets. */
export const OIDC_FLAGS = {
  oidcIssuer: '--oidc-issuer',
  oidcClientId: '--oidc-client-id',
  oidcRedirectUri: '--oidc-redirect-uri',
  oidcScopes: '--oidc-scopes',
  oidcRoleClaim: '--oidc-role-claim',
  oidcRoleMap: '--oidc-roles',
  oidcOrgsClaim: '--oidc-orgs-claim',
  oidcGroupsClaim: '--oidc-groups-claim',
  oidcUserClaim: '--oidc-user-claim',
} as const;

/** parseArgs' description of them. */
export const OIDC_OPTIONS = Object.fromEntries(
  Object.values(OIDC_FLAGS).map((flag) => [flag.slice(2), { type: 'string' as const }]),
);

export const OIDC_HELP = `Single sign-on (OpenID Connect, authorization code with PKCE; docs/accounts.md):
  --oidc-issuer URL   the provider's issuer (https); the dashboard then offers "Log in with
                      single sign-on". The client secret comes from env WAYPOST_OIDC_CLIENT_SECRET
  --oidc-client-id ID this server's client id at the provider
  --oidc-redirect-uri URL  the callback registered at the provider; default
                      <this server>/api/oidc/callback
  --oidc-scopes S     scopes asked for; default "openid profile email"
  --oidc-role-claim C the claim naming the role; default waypost_role
  --oidc-roles L      claim values to roles, e.g. fleet-admins=owner,dispatch=operator
  --oidc-orgs-claim C the claim listing the orgs a user is limited to ("*": all)
  --oidc-groups-claim C  the claim listing the device groups a user is limited to
  --oidc-user-claim C the claim naming the user; default sub
`;

/** The startServer() options the single sign-on flags give (none unless given). */
export function oidcOptions(command: string, values: Record<string, string | boolean | undefined>) {
  const options: Record<string, unknown> = {};
  for (const [option, flag] of Object.entries(OIDC_FLAGS)) {
    const value = stringFlag(values, flag.slice(2));
    if (value === undefined) continue;
    options[option] = option === 'oidcRoleMap' ? roleMap(command, value) : value;
  }
  return options;
}

/** "value=role,value=role" as an object (the service checks the roles). */
function roleMap(command: string, text: string): Record<string, string> {
  const map: Record<string, string> = {};
  for (const pair of text
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '')) {
    const at = pair.lastIndexOf('=');
    if (at <= 0) throw usageError(`${command}: --oidc-roles takes value=role pairs, got ${JSON.stringify(pair)}`);
    map[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return map;
}
