import { useEffect, useState } from 'react';

/** Search waits this long after the last keystroke (spec §9). */
export const SEARCH_DEBOUNCE_MS = 500;

/** `value`, but only once it has stopped changing for `delay` ms. */
export function useDebouncedValue<T>(value: T, delay = SEARCH_DEBOUNCE_MS): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const id = setTimeout(() => setDebounced(value), delay);
    return () => clearTimeout(id);
  }, [value, delay]);
  return debounced;
}
