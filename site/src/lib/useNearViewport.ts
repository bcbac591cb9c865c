import { useCallback, useEffect, useState } from 'react';

/**
 * Whether an element has come within `margin` of the viewport (and stays true after). For work a
 * part of a page needs only once it is about to be seen: a costly check far below the fold should
 * not compete with the first screen. Without IntersectionObserver it is true at once.
 * Returns the ref to put on the element and the flag.
 */
export function useNearViewport(margin = '400px'): [(el: Element | null) => void, boolean] {
  const [el, setEl] = useState<Element | null>(null);
  const [near, setNear] = useState(() => typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    if (near || !el) return;
    const io = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setNear(true);
      },
      { rootMargin: margin },
    );
    io.observe(el);
    return () => io.disconnect();
  }, [el, near, margin]);
  return [useCallback((node: Element | null) => setEl(node), []), near];
}
