import { ROLES } from '../accounts/roles.js';

/** A name a login may type: short, printable, no path or markup characters; "me" names the caller. */
export const LOGIN_NAME_SCHEMA = { type: 'string', pattern: '^(?!me$)[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$' } as const;
/** A new user's name: as a login's, and not "me" in any case either (names are one in any case). */
export const USER_NAME_SCHEMA = { type: 'string', pattern: '^(?![Mm][Ee]$)[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$' } as const;
/** 12 characters at least (NIST SP 800-63B asks for 8; passphrases welcome), bounded for scrypt's input. */
export const PASSWORD_SCHEMA = { type: 'string', minLength: 12, maxLength: 1024 } as const;
export const ROLE_SCHEMA = { type: 'string', enum: ROLES } as const;
/** A device group's name: as a user's, no path or markup characters. */
export const GROUP_NAME_SCHEMA = { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9._@ -]{0,63}$' } as const;
/** The orgs (or the device groups) a user is limited to (null: all). */
export const ORGS_SCHEMA = {
  anyOf: [
    { type: 'null' },
    {
      type: 'array',
      minItems: 1,
      maxItems: 1000,
      uniqueItems: true,
      items: { type: 'string', minLength: 1, maxLength: 200 },
    },
  ],
} as const;
export const GROUPS_SCHEMA = ORGS_SCHEMA;
