/**
 * Bounds on JSON that comes from outside (location extras, geofence extras, configuration
 * objects, a server's commands): checked iteratively, so hostile nesting cannot overflow the
 * stack before it is rejected.
 */
export const MAX_JSON_DEPTH = 32;
/** Values (objects, arrays and scalars) in one input. */
export const MAX_JSON_NODES = 10_000;
/** Characters of one input once serialized. */
export const MAX_JSON_CHARS = 64 * 1024;

/** Why `value` is not bounded JSON, or null when it is. */
export function jsonProblem(value: unknown, limits: { maxChars?: number } = {}): string | null {
  const stack: [unknown, number][] = [[value, 0]];
  let nodes = 0;
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (++nodes > MAX_JSON_NODES) return `more than ${MAX_JSON_NODES} values`;
    if (item === null || typeof item === 'string' || typeof item === 'boolean') continue;
    if (typeof item === 'number') {
      if (!Number.isFinite(item)) return 'a number that is not finite';
      continue;
    }
    if (typeof item !== 'object') return `a ${typeof item}, which JSON cannot hold`;
    if (depth >= MAX_JSON_DEPTH) return `nested deeper than ${MAX_JSON_DEPTH} levels`;
    if (Array.isArray(item)) {
      for (const child of item) stack.push([child, depth + 1]);
    } else {
      const proto = Object.getPrototypeOf(item) as unknown;
      if (proto !== Object.prototype && proto !== null) return 'an object that is not plain JSON';
      for (const child of Object.values(item)) stack.push([child, depth + 1]);
    }
  }
  const maxChars = limits.maxChars ?? MAX_JSON_CHARS;
  if (JSON.stringify(value).length > maxChars) return `larger than ${maxChars} characters as JSON`;
  return null;
}
