import type { HttpConfig } from '../config/types.js';
import type { NetworkType } from '../ports/network.js';

export type SyncTrigger =
  | 'location'
  | 'motionchange'
  | 'start'
  | 'ready'
  | 'connectivity'
  | 'heartbeat'
  /** The periodic retry (spec 7.3 background fetch), and the end of a Retry-After. */
  | 'retry'
  /** The app came back to the foreground (spec 7.3 "the app resumes"). */
  | 'resume'
  /** The platform woke a background context to upload (a service worker's Background Sync). */
  | 'background'
  | 'manual';

/** The triggers that start an upload by themselves (spec 7.3), as opposed to sync(). */
export type AutoTrigger = Exclude<SyncTrigger, 'manual'>;

export interface PolicyState {
  http: Pick<HttpConfig, 'url' | 'autoSync' | 'autoSyncThreshold' | 'disableAutoSyncOnCellular'>;
  network: NetworkType;
  /** Records waiting in the queue (not locked by a running upload). */
  queued: number;
}

export type PolicyDecision = { upload: true } | { upload: false; reason: string };

/**
 * Whether an automatic trigger starts an upload (spec 3 rules 1-5). Pure, so each rule is a line
 * of a table test. Manual sync() never asks: it always proceeds (rule 5).
 */
export function decideAutoUpload(trigger: Exclude<SyncTrigger, 'manual'>, state: PolicyState): PolicyDecision {
  if (!state.http.url) return { upload: false, reason: 'no http.url' };
  if (!state.http.autoSync) return { upload: false, reason: 'autoSync is false' };
  if (state.queued === 0) return { upload: false, reason: 'queue empty' };
  if (state.network === 'none') return { upload: false, reason: 'no connection' };
  if (state.http.disableAutoSyncOnCellular && state.network === 'cellular') {
    return { upload: false, reason: 'waiting for Wi-Fi (disableAutoSyncOnCellular)' };
  }
  // Rule 3: a motion change flushes everything whatever the threshold.
  const threshold = state.http.autoSyncThreshold;
  if (trigger !== 'motionchange' && threshold > 0 && state.queued < threshold) {
    return { upload: false, reason: `${state.queued} of ${threshold} records (autoSyncThreshold)` };
  }
  return { upload: true };
}
