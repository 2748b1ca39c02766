/**
 * Binds every method of `instance`'s class chain to it, once, at creation: the anchor's methods
 * work detached (`const { getCount } = bg; await getCount()`), so Waypost's must too.
 */
export function bindMethods(instance: object): void {
  const target = instance as Record<string, unknown>;
  for (
    let proto = Object.getPrototypeOf(instance);
    proto && proto !== Object.prototype;
    proto = Object.getPrototypeOf(proto)
  ) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      if (name === 'constructor' || Object.hasOwn(target, name)) continue;
      const descriptor = Object.getOwnPropertyDescriptor(proto, name);
      if (typeof descriptor?.value !== 'function') continue;
      Object.defineProperty(instance, name, {
        value: (descriptor.value as (...args: unknown[]) => unknown).bind(instance),
        writable: true,
        configurable: true,
      });
    }
  }
}
