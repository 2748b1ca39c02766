import { GROUP_NAMES, fieldsOf } from './fields.js';
import type { GroupName } from './types.js';

/**
 * The anchor SDK's older flat configuration (`{ url, autoSync, httpRootProperty, ... }`) mapped
 * onto Waypost's groups, so existing configurations keep working unchanged.
 */
export const FLAT_KEYS: ReadonlyMap<string, { group: GroupName; field: string }> = (() => {
  const map = new Map<string, { group: GroupName; field: string }>();
  for (const group of GROUP_NAMES) {
    // The anchor always nested authorization in its own object; it has no flat form.
    if (group === 'authorization') continue;
    for (const [field, spec] of Object.entries(fieldsOf(group))) {
      map.set(spec.flatKey ?? field, { group, field });
    }
  }
  return map;
})();
