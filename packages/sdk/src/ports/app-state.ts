/**
 * The host app's foreground state, where the platform has one (a page: visibilitychange and
 * pageshow). The engine treats the app coming back to the foreground as the spec's "app resumes"
 * retry trigger (spec 7.3).
 */
export interface AppStateMonitor {
  /** Called each time the app comes back to the foreground. Returns an unsubscribe function. */
  onResume(listener: () => void): () => void;
}
