import type { ReRegistration } from '../auth/reregistration.js';
import type { Lifecycle } from '../lifecycle/lifecycle.js';
import type { PositionRequests } from '../tracking/position-requests.js';

export interface CloseMethods {
  /** Waits for a running upload, writes the log and state, and closes the store. */
  close(): Promise<void>;
}

export interface CloseGroupDeps {
  lifecycle: Pick<Lifecycle, 'close'>;
  positions: Pick<PositionRequests, 'close'>;
  reregistration: Pick<ReRegistration, 'idle'>;
}

/** Closing: position requests end first, a running re-registration is awaited, then the engine. */
export function closeGroup({ lifecycle, positions, reregistration }: CloseGroupDeps): CloseMethods {
  return {
    close: async () => {
      positions.close();
      await reregistration.idle();
      await lifecycle.close();
    },
  };
}
