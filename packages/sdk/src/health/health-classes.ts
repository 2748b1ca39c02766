import type { HttpConfig } from '../config/types.js';
import type { NetworkType } from '../ports/network.js';
import type { UploadOutcome } from '../queue/outcome.js';
import type { FailureClass, HealthReport, ProviderStateName } from './health-header.js';

/** Statuses that refuse the credentials rather than the records or the server's health. */
const AUTH_STATUSES = new Set([401, 403, 407]);

/** The failure class of an upload's outcome; null when it delivered. Pure. */
export function failureClassOf(outcome: UploadOutcome): FailureClass | null {
  switch (outcome.kind) {
    case 'delivered':
      return null;
    case 'unauthorized':
      return 'auth';
    case 'refused':
      return 'refused';
    case 'tooLarge':
      return 'client';
    case 'retry':
      if (outcome.reason !== 'status') return outcome.reason;
      // A 429 or 503 with Retry-After: the server asked it to wait (the hold follows).
      if (outcome.retryAfter !== undefined) return 'throttled';
      if (AUTH_STATUSES.has(outcome.status)) return 'auth';
      return outcome.status >= 500 || outcome.status === 429 ? 'server' : 'client';
  }
}

/**
 * What holds automatic uploads back right now, in the order the scheduler applies the rules
 * (autoSync, a Retry-After, no network, Wi-Fi only); undefined when nothing does. Pure.
 */
export function holdOf(
  http: Pick<HttpConfig, 'autoSync' | 'disableAutoSyncOnCellular'>,
  network: NetworkType,
  retryAfter: number | null,
  now: number,
): HealthReport['hold'] {
  if (!http.autoSync) return { kind: 'autosync-off' };
  if (retryAfter !== null && retryAfter > now)
    return { kind: 'retry-after', for: Math.ceil((retryAfter - now) / 1000) };
  if (network === 'none') return { kind: 'offline' };
  if (http.disableAutoSyncOnCellular && network === 'cellular') return { kind: 'wifi' };
  return undefined;
}

/**
 * A location provider's error code as a provider state: the browser's PERMISSION_DENIED,
 * POSITION_UNAVAILABLE and TIMEOUT, the Node providers' SOURCE_UNAVAILABLE / SOURCE_LOST (the
 * source is off or gone) and any PROVIDER_DISABLED. Pure.
 */
export function providerStateOf(code: string | undefined): ProviderStateName {
  switch (code) {
    case 'PERMISSION_DENIED':
      return 'denied';
    case 'SOURCE_UNAVAILABLE':
    case 'SOURCE_LOST':
    case 'PROVIDER_DISABLED':
    case 'UNSUPPORTED':
      return 'disabled';
    default:
      return 'nofix';
  }
}
