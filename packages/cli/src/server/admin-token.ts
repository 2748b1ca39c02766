import { usageError } from '../errors.js';

/**
 * The shortest admin token accepted from the operator (--admin-token, WAYPOST_ADMIN_TOKEN). The
 * token is the admin's password on a network service: 16 characters of base64 are 96 bits. A
 * generated one has 32.
 */
export const MIN_ADMIN_TOKEN_CHARS = 16;

/** Refuses a given admin token that is too short to be a secret; says how to make a good one. */
export function checkAdminToken(command: string, token: string | undefined, givenBy: string): void {
  if (token === undefined || token === '' || token.length >= MIN_ADMIN_TOKEN_CHARS) return;
  throw usageError(
    `${command}: ${givenBy} is ${token.length} character${token.length === 1 ? '' : 's'} long; an admin token ` +
      `needs at least ${MIN_ADMIN_TOKEN_CHARS} (make one with: openssl rand -base64 24), or leave it out to have one generated`,
  );
}
