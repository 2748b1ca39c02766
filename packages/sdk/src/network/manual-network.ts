import { NETWORK_TYPES, type NetworkMonitor, type NetworkType } from '../ports/network.js';

/** A network whose state is set by hand: for tests, and for embedders that know their link. */
export class ManualNetwork implements NetworkMonitor {
  private type: NetworkType;
  private readonly listeners = new Set<(type: NetworkType) => void>();

  constructor(initial: NetworkType = 'wifi') {
    this.type = initial;
  }

  current(): NetworkType {
    return this.type;
  }

  set(state: { type: NetworkType } | NetworkType): void {
    const type = typeof state === 'string' ? state : state.type;
    if (!NETWORK_TYPES.includes(type)) {
      throw new TypeError(`Unknown network type ${JSON.stringify(type)}; use one of ${NETWORK_TYPES.join(', ')}.`);
    }
    if (type === this.type) return;
    this.type = type;
    for (const listener of [...this.listeners]) listener(type);
  }

  subscribe(listener: (type: NetworkType) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }
}
