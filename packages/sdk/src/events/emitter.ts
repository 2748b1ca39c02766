export interface Subscription {
  remove(): void;
}

/**
 * A typed emitter whose listeners cannot break the SDK: a throwing listener is reported to
 * `onListenerError` (the SDK log) and the other listeners and the upload still run.
 */
export class Emitter<Events extends { [K in keyof Events]: unknown }> {
  private readonly listeners = new Map<keyof Events, Set<(payload: never) => void>>();

  constructor(private readonly onListenerError: (event: string, error: unknown) => void) {}

  on<K extends keyof Events>(event: K, listener: (payload: Events[K]) => void): Subscription {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    const entry = listener as (payload: never) => void;
    set.add(entry);
    return { remove: () => void set.delete(entry) };
  }

  has(event: keyof Events): boolean {
    return (this.listeners.get(event)?.size ?? 0) > 0;
  }

  emit<K extends keyof Events>(event: K, payload: Events[K]): void {
    const set = this.listeners.get(event);
    if (!set) return;
    for (const listener of [...set]) {
      try {
        (listener as (payload: Events[K]) => void)(payload);
      } catch (error) {
        this.onListenerError(String(event), error);
      }
    }
  }

  clear(): void {
    this.listeners.clear();
  }
}
