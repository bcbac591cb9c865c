import { useEffect, useState } from 'react';

/** The longest wait for an idle moment: a page that is never idle still gets what waits for one. */
export const AFTER_IDLE_TIMEOUT_MS = 3_000;

/**
 * False until the browser is first idle after the component mounted (requestIdleCallback, bounded
 * by AFTER_IDLE_TIMEOUT_MS; a zero timeout where there is no such callback). For parts of the
 * shell that nobody needs for the first screen, so their chunks, requests and rendering come
 * after the page's own work instead of among it.
 */
export function useAfterIdle(timeoutMs = AFTER_IDLE_TIMEOUT_MS): boolean {
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    if (typeof requestIdleCallback === 'function') {
      const id = requestIdleCallback(() => setIdle(true), { timeout: timeoutMs });
      return () => cancelIdleCallback(id);
    }
    const id = setTimeout(() => setIdle(true), 0);
    return () => clearTimeout(id);
  }, [timeoutMs]);
  return idle;
}
