import { ROLES, isRole, type Role } from '../accounts/roles.js';
import type { OidcOptions } from './oidc-options.js';

/** Who a provider's claims make the user, or why they make nobody. */
export type ClaimedUser =
  | { ok: true; name: string; role: Role; orgs: string[] | null; groups: string[] | null }
  | { ok: false; code: 'OIDC_NO_USER' | 'OIDC_NO_ROLE' | 'OIDC_NO_SCOPE'; message: string };

/** Most values one list claim may carry, and the longest of each (a provider's claims are input). */
const MAX_VALUES = 1000;
const MAX_VALUE_CHARS = 200;

/** A claim as a list of strings: a string is one, a list keeps its strings; anything else is none. */
function values(claim: unknown): string[] {
  const list = typeof claim === 'string' ? [claim] : Array.isArray(claim) ? claim : [];
  return list
    .filter((v): v is string => typeof v === 'string' && v.length > 0 && v.length <= MAX_VALUE_CHARS)
    .slice(0, MAX_VALUES);
}

/** A scope claim: null ("*": every device), a list, or undefined when the claim says nothing. */
function scopeOf(claims: Record<string, unknown>, claim: string | null): string[] | null | undefined {
  if (claim === null) return undefined;
  const list = [...new Set(values(claims[claim]))];
  if (list.includes('*')) return null;
  return list.length > 0 ? list : undefined;
}

/**
 * The user a provider's claims describe (pure). The role is the highest any value of the role
 * claim maps to (oidcRoleMap, or a role's own name); no role is no login. With a scope claim
 * configured the user is limited to what it names (orgs, groups, or both: either's devices), and
 * a user it names nothing for is refused: a missing claim never widens to every device ("*" does).
 */
export function userOfClaims(oidc: OidcOptions, claims: Record<string, unknown>): ClaimedUser {
  const subject = values(claims[oidc.userClaim])[0];
  if (subject === undefined) {
    return { ok: false, code: 'OIDC_NO_USER', message: `The provider sent no ${oidc.userClaim} claim` };
  }
  const roles = values(claims[oidc.roleClaim])
    .map((value) => oidc.roleMap[value] ?? (isRole(value) ? value : null))
    .filter((role): role is Role => role !== null);
  const role = [...ROLES].reverse().find((r) => roles.includes(r));
  if (!role) {
    return { ok: false, code: 'OIDC_NO_ROLE', message: `The ${oidc.roleClaim} claim maps to no Waypost role` };
  }
  const orgs = scopeOf(claims, oidc.orgsClaim);
  const groups = scopeOf(claims, oidc.groupsClaim);
  const scoped = oidc.orgsClaim !== null || oidc.groupsClaim !== null;
  if (scoped && orgs === undefined && groups === undefined) {
    return { ok: false, code: 'OIDC_NO_SCOPE', message: 'The provider named no org or device group for this user' };
  }
  // "*" in either claim: every device.
  const all = orgs === null || groups === null;
  return {
    ok: true,
    name: `sso:${subject}`,
    role,
    orgs: all ? null : (orgs ?? null),
    groups: all ? null : (groups ?? null),
  };
}
