/** A user's role (issue 33): each includes the ones below it. */
export type Role = 'viewer' | 'operator' | 'owner';

export const ROLES: readonly Role[] = ['viewer', 'operator', 'owner'];

/** Whether `role` may do what `needed` may. */
export const roleAllows = (role: Role, needed: Role): boolean => ROLES.indexOf(role) >= ROLES.indexOf(needed);

export const isRole = (value: unknown): value is Role => typeof value === 'string' && ROLES.includes(value as Role);

/** A person logged in with their password (issue 33): what they may do is their role, where, their orgs. */
export interface UserPrincipal {
  kind: 'user';
  name: string;
  role: Role;
  /** The orgs the user is limited to, or null for all devices. */
  orgs: string[] | null;
  /** The device groups the user is limited to, or null; limited by both, the user sees either's devices. */
  groups: string[] | null;
}
