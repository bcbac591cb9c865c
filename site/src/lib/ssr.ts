// The server sends the blog's pages with their text already in the HTML, as a fixed layer over
// the app (#ssr-page) that reads without JavaScript. The page that shows the same text removes
// it once its own rendering is on screen; a fixed layer going away moves nothing else, so the
// take-over shifts no layout. Any navigation inside the app removes it too.
import { useEffect } from 'react';

export const SERVER_RENDER_ID = 'ssr-page';

/**
 * Once the app runs, the layer is only a picture of the page until the app's own is ready: it is
 * taken out of the accessibility tree and the tab order (the app's page is the one to use).
 */
export function quietServerRender(): void {
  const el = document.getElementById(SERVER_RENDER_ID);
  if (!el) return;
  el.setAttribute('aria-hidden', 'true');
  el.setAttribute('inert', '');
}

export function releaseServerRender(): void {
  document.getElementById(SERVER_RENDER_ID)?.remove();
}

/** Removes the server's layer after the frame in which `done` became true is painted. */
export function useReleaseServerRender(done: boolean): void {
  useEffect(() => {
    if (!done || !document.getElementById(SERVER_RENDER_ID)) return;
    let second = 0;
    const first = requestAnimationFrame(() => {
      second = requestAnimationFrame(releaseServerRender);
    });
    return () => {
      cancelAnimationFrame(first);
      cancelAnimationFrame(second);
    };
  }, [done]);
}
