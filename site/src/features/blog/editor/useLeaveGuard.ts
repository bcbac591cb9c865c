// Asks before leaving a page with unsaved changes: the browser's own prompt when the tab is
// closed or reloaded (beforeunload), and a confirmation before a link inside the site is
// followed or the browser's Back button leaves the page. The app's router is a declarative
// <BrowserRouter>, where react-router's useBlocker is not available (it needs a data router), so:
// - in-app links are caught here, in the capture phase before the router's own click handler
//   (which does nothing for a click whose default was prevented);
// - Back is caught with a guard entry: while there are unsaved changes the page's history entry
//   is doubled (the copy marked GUARD_KEY, same address and router state), so Back first lands
//   on the page itself — the router sees the same location and the editor stays mounted with
//   its text — and only then asks. Staying puts the guard entry back; leaving goes back once more.
import { useEffect } from 'react';

/** The mark of the guard's history entry in history.state. */
export const GUARD_KEY = 'devhubLeaveGuard';

const isGuardEntry = (state: unknown) =>
  typeof state === 'object' && state !== null && (state as Record<string, unknown>)[GUARD_KEY] === true;

const pushGuardEntry = () => {
  const state = (window.history.state ?? {}) as Record<string, unknown>;
  window.history.pushState({ ...state, [GUARD_KEY]: true }, '', window.location.href);
};

// Guards active now: a guard that ends and one that starts at once (React re-running an effect)
// share the one guard entry instead of dropping and pushing it.
let active = 0;

export function useLeaveGuard(when: boolean, message: string) {
  useEffect(() => {
    if (!when) return;
    active++;
    let leaving = false;
    const guardedHref = window.location.href;
    if (!isGuardEntry(window.history.state)) pushGuardEntry();

    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      // older browsers show the prompt only when returnValue is set
      e.returnValue = '';
    };
    const onClick = (e: MouseEvent) => {
      if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
      const a = (e.target as Element | null)?.closest?.('a[href]');
      if (!(a instanceof HTMLAnchorElement) || a.target === '_blank' || a.hasAttribute('download')) return;
      const url = new URL(a.href, window.location.href);
      if (url.origin !== window.location.origin) return;
      if (url.pathname === window.location.pathname && url.search === window.location.search) return;
      if (!window.confirm(message)) {
        e.preventDefault();
        e.stopPropagation();
      }
    };
    const onPopState = (e: PopStateEvent) => {
      // Back left the guard entry for the page's own one (any other move is the router's).
      if (leaving || isGuardEntry(e.state)) return;
      if (window.location.href !== guardedHref) return;
      if (window.confirm(message)) {
        leaving = true;
        window.history.back();
      } else {
        pushGuardEntry();
      }
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    window.addEventListener('popstate', onPopState);
    document.addEventListener('click', onClick, true);
    return () => {
      window.removeEventListener('beforeunload', onBeforeUnload);
      window.removeEventListener('popstate', onPopState);
      document.removeEventListener('click', onClick, true);
      active--;
      // Saved (or the page closed): the guard entry goes, unless a guard starts again at once.
      // After a navigation the current entry is another page's, and nothing is undone.
      if (!leaving) {
        setTimeout(() => {
          if (active === 0 && isGuardEntry(window.history.state)) window.history.back();
        }, 0);
      }
    };
  }, [when, message]);
}
