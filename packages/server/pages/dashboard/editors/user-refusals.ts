// The Users panel's refusals in a person's words (issue 42): the API answers { error, code }, and a
// schema refusal names its field ("body/password must NOT have fewer than 12 characters"); the
// panel shows a sentence for that field beside it, made from the code and the field, never the
// schema's wording (which stays in the status line, as text, for whoever reports a problem).
import { api, type ApiInit } from '../base/api.js';

/** The fields of a user the panel shows errors beside ('form' for what names none of them). */
export type UserField = 'name' | 'password' | 'role' | 'limits' | 'form';

/** What the rules of the routes' schemas (routes/user-schemas.ts) mean to the person typing. */
const RULES: Record<Exclude<UserField, 'form'>, string> = {
  name:
    'A name is 1 to 64 letters, digits, dots, dashes, underscores or @, starting with a letter or a digit' +
    ' (and not "me").',
  password: 'A password needs at least 12 characters (and at most 1024).',
  role: 'Choose a role: viewer, operator or owner.',
  limits: 'Choose organizations and groups from the lists.',
};

/** A refusal: its sentence, the field it is about, and the server's own message. */
export class Refused extends Error {
  constructor(
    readonly field: UserField,
    readonly sentence: string,
    readonly said: string,
  ) {
    super(sentence);
  }
}

/** The field a schema message names ("body/password ..." or "body must have required property 'name'"). */
function fieldNamed(message: string): UserField {
  const named = /body\/(\w+)/.exec(message)?.[1] ?? /property '(\w+)'/.exec(message)?.[1];
  if (named === 'name' || named === 'password' || named === 'role') return named;
  return named === 'orgs' || named === 'groups' ? 'limits' : 'form';
}

/** The sentence for an answer's code and the field it names. */
export function refusalOf(code: string, said: string): Refused {
  if (code === 'USER_EXISTS') return new Refused('name', 'A user of this name exists already: choose another.', said);
  if (code === 'UNKNOWN_USER') return new Refused('form', 'This user is gone (deleted meanwhile).', said);
  if (code === 'UNKNOWN_ORG' || code === 'UNKNOWN_GROUP') return new Refused('limits', RULES.limits, said);
  if (code === 'INVALID_BODY') {
    const field = fieldNamed(said);
    if (field !== 'form') return new Refused(field, RULES[field], said);
  }
  return new Refused('form', said, said);
}

/** A users route's answer; a refusal throws Refused. */
export async function userCall(path: string, init?: ApiInit): Promise<unknown> {
  const response = await api(path, init);
  const body: unknown = await response.json().catch(() => null);
  if (response.ok) return body;
  const { error, code } = (typeof body === 'object' && body !== null ? body : {}) as {
    error?: unknown;
    code?: unknown;
  };
  const said = (typeof error === 'string' ? error : 'HTTP ' + response.status).slice(0, 500);
  throw refusalOf(typeof code === 'string' ? code : '', said);
}
