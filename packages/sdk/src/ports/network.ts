/** The kinds of connection the upload policy distinguishes (spec 3 rule 5). */
export type NetworkType = 'wifi' | 'cellular' | 'ethernet' | 'none';

export const NETWORK_TYPES: readonly NetworkType[] = ['wifi', 'cellular', 'ethernet', 'none'];

export interface NetworkMonitor {
  current(): NetworkType;
  /** Called with the new type each time it changes. Returns an unsubscribe function. */
  subscribe(listener: (type: NetworkType) => void): () => void;
  close?(): void;
  /**
   * What uploads saw: a response arrived (`reachable`) or a request failed without one
   * (`unreachable`). Monitors that cannot see every link use it so they are never stuck at `none`
   * while uploads succeed.
   */
  hint?(observation: 'reachable' | 'unreachable'): void;
}
