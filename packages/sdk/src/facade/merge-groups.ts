type Merged<G extends readonly object[]> = G extends readonly [infer H, ...infer R extends readonly object[]]
  ? H & Merged<R>
  : unknown;

/**
 * One plain object with every group's members as its own properties (getters stay getters, so
 * `tracking` and `config.current` read live). Two groups naming the same member is a bug in the
 * assembly, refused rather than letting the later one win.
 */
export function mergeGroups<G extends readonly object[]>(...groups: G): Merged<G> {
  const merged = {};
  for (const group of groups) {
    for (const [name, descriptor] of Object.entries(Object.getOwnPropertyDescriptors(group))) {
      if (Object.hasOwn(merged, name)) throw new Error(`facade: two method groups define "${name}".`);
      Object.defineProperty(merged, name, { ...descriptor, enumerable: true });
    }
  }
  return merged as Merged<G>;
}
