import { useEffect, useState } from 'react';

/**
 * `value`, but only once it has stopped changing for `delay` ms — the SPA's one debounce.
 * The delay has no default: each page names its own constant (the blog's search waits the
 * spec's 500 ms, the games and admin user searches 300 ms).
 */
export function useDebouncedValue<T>(value: T, delay: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const id = setTimeout(() => setDebounced(value), delay);
    return () => clearTimeout(id);
  }, [value, delay]);
  return debounced;
}
