// The emulator cores keep the screen awake while a game runs: RetroArch's web platform calls
// navigator.wakeLock.request('screen') inside a try block but never awaits or handles the promise
// it keeps, so a browser that refuses the lock (NotAllowedError: the page is hidden, the user or a
// policy said no, a headless browser) leaves an uncaught rejection in the console. The lock is a
// nicety: refused, the game plays on.

/** The part of a Navigator this needs (a test passes its own). */
interface WakeLockHost {
  wakeLock?: { request(type: 'screen'): Promise<unknown> };
}

/**
 * Makes the host's wake-lock requests never reject: a refused request resolves to null (the core
 * only ever calls release() on what it gets, inside a try block). A granted lock is handed on as
 * it came. Without the Wake Lock API there is nothing to do.
 */
export function guardWakeLock(host: WakeLockHost = navigator as WakeLockHost): void {
  const lock = host.wakeLock;
  if (!lock || typeof lock.request !== 'function') return;
  const request = lock.request.bind(lock);
  Object.defineProperty(lock, 'request', {
    configurable: true,
    value: (type: 'screen') => {
      try {
        return request(type).catch(() => null);
      } catch {
        return Promise.resolve(null);
      }
    },
  });
}
