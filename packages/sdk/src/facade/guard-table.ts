/** What a method needs of the instance: not closed, or tracking started (and so ready and open). */
export type Guard = 'open' | 'started';

export interface GuardRule {
  needs: Guard;
  /** Checked only when this holds, so that a wrong argument is reported as such in any state. */
  when?: (args: readonly unknown[]) => boolean;
  /** The method returns a value, not a Promise: a failed guard throws instead of rejecting. */
  sync?: true;
}

/**
 * The facade's preconditions, in one place, by method path ('store.insertLocation' is a method of
 * the `store` view): applied once when the facade is assembled, so no method checks them itself.
 * Methods not listed run in any state. Queue reads work before ready() (open is not ready);
 * ready(), start() and stop() leave their state checks to the Lifecycle, which names the
 * operation in its error.
 */
export const GUARD_TABLE = {
  // Configuration.
  setConfig: 'open',
  reset: 'open',
  reloadConfig: 'open',
  setLogLevel: 'open',
  'config.edit': 'open',
  // Tracking: a bad argument to changePace is INVALID_CONFIG whatever the state.
  changePace: { needs: 'started', when: ([isMoving]) => typeof isMoving === 'boolean' },
  recordLocation: 'started',
  // The queue and uploads. Reads too: after close() the store is gone, and the caller is told
  // CLOSED, not the database driver's own words.
  getCount: 'open',
  getLocations: 'open',
  destroyLocations: 'open',
  destroyLocation: 'open',
  insertLocation: 'open',
  sync: 'open',
  'store.getCount': 'open',
  'store.getLocations': 'open',
  'store.destroyLocations': 'open',
  'store.destroyLocation': 'open',
  'store.insertLocation': 'open',
  'store.sync': 'open',
  // Geofences.
  addGeofence: 'open',
  addGeofences: 'open',
  removeGeofence: 'open',
  removeGeofences: 'open',
  'store.removeGeofences': 'open',
  // The location provider and the odometer.
  getCurrentPosition: 'open',
  watchPosition: { needs: 'open', sync: true },
  setOdometer: 'open',
  resetOdometer: 'open',
  // Registration and the log.
  findOrCreateTransistorAuthorizationToken: 'open',
  'logger.getLog': 'open',
  'logger.destroyLog': 'open',
  'logger.emailLog': 'open',
  'logger.uploadLog': 'open',
} as const satisfies Record<string, Guard | GuardRule>;

type Method = (...args: never[]) => unknown;
type MethodKeys<T> = { [K in keyof T & string]: T[K] extends Method ? K : never }[keyof T & string];
/** `name` for a method of F, `view.name` for a method of one of F's objects. */
export type MethodPath<F> = {
  [K in keyof F & string]: F[K] extends Method ? K : F[K] extends object ? `${K}.${MethodKeys<F[K]>}` : never;
}[keyof F & string];

export interface GuardChecks {
  open(): void;
  started(operation: string): void;
}

type AnyMethod = (...args: unknown[]) => unknown;

/**
 * Wraps each method the table names in its check. A path that names no method is a bug in the
 * table: the compiler refuses it, and so does the assembly at run time.
 */
export function applyGuards<F extends object, T extends Record<string, Guard | GuardRule>>(
  facade: F,
  table: T & Record<Exclude<keyof T, MethodPath<F>>, never>,
  checks: GuardChecks,
): void {
  for (const [path, entry] of Object.entries(table as Record<string, Guard | GuardRule>)) {
    const rule: GuardRule = typeof entry === 'string' ? { needs: entry } : entry;
    const dot = path.indexOf('.');
    const name = path.slice(dot + 1);
    const owner = (dot < 0 ? facade : (facade as Record<string, unknown>)[path.slice(0, dot)]) as
      Record<string, unknown> | undefined;
    const method = owner?.[name];
    if (!owner || typeof method !== 'function') throw new Error(`GUARD_TABLE: "${path}" is not a facade method.`);
    const check = (args: readonly unknown[]) => {
      if (rule.when && !rule.when(args)) return;
      if (rule.needs === 'open') checks.open();
      else checks.started(name);
    };
    const run = method as AnyMethod;
    owner[name] = rule.sync
      ? (...args: unknown[]) => {
          check(args);
          return run(...args);
        }
      : (...args: unknown[]) => {
          try {
            check(args);
          } catch (error) {
            return Promise.reject(error);
          }
          return run(...args);
        };
  }
}
