import { NETWORK_TYPES, type NetworkMonitor, type NetworkType } from '../ports/network.js';

/** What set() and the constructor take: a type, or an object naming one (as a monitor reports it). */
export type NetworkState = { type: NetworkType } | NetworkType;

function typeOf(state: unknown): NetworkType {
  const type = state !== null && typeof state === 'object' ? (state as { type?: unknown }).type : (state as unknown);
  if (typeof type !== 'string' || !(NETWORK_TYPES as readonly string[]).includes(type)) {
    throw new TypeError(
      `Unknown network state ${typeof type === 'string' ? JSON.stringify(type.slice(0, 32)) : typeof type}; use one of ${NETWORK_TYPES.join(', ')} (or { type }).`,
    );
  }
  return type as NetworkType;
}

/** A network whose state is set by hand: for tests, and for embedders that know their link. */
export class ManualNetwork implements NetworkMonitor {
  private type: NetworkType;
  private readonly listeners = new Set<(type: NetworkType) => void>();

  constructor(initial: NetworkState = 'wifi') {
    this.type = typeOf(initial);
  }

  current(): NetworkType {
    return this.type;
  }

  set(state: NetworkState): void {
    const type = typeOf(state);
    if (type === this.type) return;
    this.type = type;
    for (const listener of [...this.listeners]) listener(type);
  }

  subscribe(listener: (type: NetworkType) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }
}
