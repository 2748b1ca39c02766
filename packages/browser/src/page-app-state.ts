import type { AppStateMonitor } from '@waypost/sdk/internal';

/**
 * A page's foreground state for the engine's "app resumes" trigger: the page becoming visible
 * again (another tab, the phone unlocked) and a page restored from the back/forward cache. In a
 * worker there is no page: undefined.
 */
export function pageAppState(): AppStateMonitor | undefined {
  const doc = (globalThis as { document?: Document }).document;
  if (!doc) return undefined;
  return {
    onResume(listener) {
      const onVisibility = () => {
        if (doc.visibilityState === 'visible') listener();
      };
      const onPageShow = (event: Event) => {
        if ((event as PageTransitionEvent).persisted) listener();
      };
      doc.addEventListener('visibilitychange', onVisibility);
      globalThis.addEventListener('pageshow', onPageShow);
      return () => {
        doc.removeEventListener('visibilitychange', onVisibility);
        globalThis.removeEventListener('pageshow', onPageShow);
      };
    },
  };
}
