import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { logPageLoad, logRouteChange } from '../lib/activity';

/** page_load (and guest_visit) once per load; route_change {from, to} on every navigation. */
export function useActivityLogging(): void {
  const location = useLocation();
  const path = location.pathname + location.search;
  const previous = useRef<string | null>(null);

  useEffect(() => {
    if (previous.current === null) logPageLoad(path);
    else if (previous.current !== path) logRouteChange(previous.current, path);
    previous.current = path;
  }, [path]);
}
