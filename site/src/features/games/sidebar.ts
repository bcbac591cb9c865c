// The desktop sidebar's width: starts at 300 px and can be dragged between 200 px and
// 60 % of the window's width. Mobile is a window width of 768 px or less.
import { useCallback, useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';

export const SIDEBAR_START = 300;
export const SIDEBAR_MIN = 200;
export const SIDEBAR_MAX_RATIO = 0.6;
export const MOBILE_MAX_WIDTH = 768;
const KEY_STEP = 16;

/** Keeps a width inside the limits for a window of the given width. */
export function clampSidebarWidth(width: number, windowWidth: number): number {
  const max = Math.max(SIDEBAR_MIN, Math.floor(windowWidth * SIDEBAR_MAX_RATIO));
  return Math.min(max, Math.max(SIDEBAR_MIN, Math.round(width)));
}

export function isMobileWidth(windowWidth: number): boolean {
  return windowWidth <= MOBILE_MAX_WIDTH;
}

/** Tracks whether the window is mobile-sized. */
export function useIsMobile(): boolean {
  const [mobile, setMobile] = useState(() => isMobileWidth(window.innerWidth));
  useEffect(() => {
    const onResize = () => setMobile(isMobileWidth(window.innerWidth));
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return mobile;
}

/** The width and the handlers of the drag handle (a focusable separator). */
export function useSidebarWidth() {
  const [width, setWidth] = useState(() => clampSidebarWidth(SIDEBAR_START, window.innerWidth));
  const drag = useRef<{ startX: number; startWidth: number } | null>(null);

  useEffect(() => {
    const onResize = () => setWidth((w) => clampSidebarWidth(w, window.innerWidth));
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);

  const onPointerDown = useCallback(
    (e: PointerEvent<HTMLElement>) => {
      e.preventDefault();
      e.currentTarget.setPointerCapture?.(e.pointerId);
      drag.current = { startX: e.clientX, startWidth: width };
    },
    [width],
  );
  const onPointerMove = useCallback((e: PointerEvent<HTMLElement>) => {
    const d = drag.current;
    if (!d) return;
    setWidth(clampSidebarWidth(d.startWidth + (e.clientX - d.startX), window.innerWidth));
  }, []);
  const onPointerUp = useCallback(() => {
    drag.current = null;
  }, []);
  const onKeyDown = useCallback((e: KeyboardEvent<HTMLElement>) => {
    const delta = e.key === 'ArrowLeft' ? -KEY_STEP : e.key === 'ArrowRight' ? KEY_STEP : 0;
    if (!delta) return;
    e.preventDefault();
    setWidth((w) => clampSidebarWidth(w + delta, window.innerWidth));
  }, []);

  return {
    width,
    max: clampSidebarWidth(Number.MAX_SAFE_INTEGER, window.innerWidth),
    handleProps: { onPointerDown, onPointerMove, onPointerUp, onPointerCancel: onPointerUp, onKeyDown },
  };
}
