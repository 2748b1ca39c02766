import type { AppContext } from '../context.js';
import { HttpError } from '../errors.js';
import { findOrg } from '../store/orgs.js';
import type { Reader } from './scope-filter.js';
import { isLimited } from './user-access.js';

/**
 * Geofences and sinks belong to an org, or to the whole fleet (issue 33). A user limited to orgs
 * sees and manages only their orgs' (the fleet's are the admin's and unlimited users'); a user
 * limited to device groups alone manages none (a group is no owner of settings). An org's
 * geofence is evaluated for its devices only, and an org's sink gets its devices' events only.
 */
export function settingOrgsOf(reader: Reader): string[] | null {
  return isLimited(reader) ? (reader.orgs ?? []) : null;
}

/** Whether a geofence or sink of `owner` (null: the fleet's) is the reader's to see. */
export const settingVisible = (orgs: string[] | null, owner: string | null | undefined): boolean =>
  orgs === null || (owner != null && orgs.includes(owner));

/**
 * The org a new geofence or sink of this caller belongs to: the `org` the body names (one of the
 * caller's orgs, or any existing org for an unlimited caller), else the caller's only org, else
 * (unlimited) none: the fleet's.
 */
export async function orgForNew(ctx: AppContext, reader: Reader, asked: unknown): Promise<string | null> {
  if (asked !== undefined && asked !== null && (typeof asked !== 'string' || asked.length > 200)) {
    throw new HttpError(400, 'INVALID_ORG', 'org must be the name of an org');
  }
  const orgs = settingOrgsOf(reader);
  if (orgs === null) {
    if (typeof asked !== 'string') return null;
    if (!(await findOrg(ctx.db, asked))) throw new HttpError(404, 'UNKNOWN_ORG', `No org "${asked}" on this server`);
    return asked;
  }
  if (orgs.length === 0) {
    throw new HttpError(403, 'NO_ORG', 'A user limited to device groups alone manages no geofences or sinks');
  }
  if (typeof asked === 'string') {
    // Another org is answered as one that does not exist: its name is not confirmed.
    if (!orgs.includes(asked)) throw new HttpError(404, 'UNKNOWN_ORG', `No org "${asked}" on this server`);
    return asked;
  }
  if (orgs.length > 1) throw new HttpError(400, 'ORG_REQUIRED', 'Name one of your orgs in "org"');
  return orgs[0]!;
}
