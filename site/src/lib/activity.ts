// Activity logging: POST /api/activity/log. Failures are swallowed: logging must
// never break a page, reject unhandled, or write to console.error. Plain fire-and-forget requests
// (keepalive), not mutations: they run from the router and at start-up outside any component,
// change nothing any query shows, and must outlive a page being left.
import { getToken, request } from './api';
import { collectClientInfo } from './clientInfo';

export type ActivityAction = 'page_load' | 'guest_visit' | 'route_change' | (string & {});

export interface ActivityEvent {
  action: ActivityAction;
  details: Record<string, unknown>;
  timestamp: string;
  clientInfo: ReturnType<typeof collectClientInfo>;
}

export const ACTIVITY_ENDPOINT = '/api/activity/log';

export function logActivity(action: ActivityAction, details: Record<string, unknown> = {}): Promise<void> {
  let event: ActivityEvent;
  try {
    event = { action, details, timestamp: new Date().toISOString(), clientInfo: collectClientInfo() };
  } catch {
    return Promise.resolve();
  }
  return request(ACTIVITY_ENDPOINT, {
    method: 'POST',
    body: event,
    keepalive: true,
    responseType: 'response',
  }).then(
    () => undefined,
    () => undefined,
  );
}

let loadLogged = false;

// Events wait for the browser to be idle and then go in order. Collecting the client info is
// the first use of Intl on a page (tens of milliseconds on a phone) and must not hold up the
// first screen; the idle callback's timeout bounds the wait on a page that is never idle.
const IDLE_TIMEOUT_MS = 2_000;
const queue: Array<() => void> = [];

function whenIdle(send: () => void): void {
  queue.push(send);
  if (queue.length > 1) return; // a flush is already scheduled
  const flush = () => {
    for (const fn of queue.splice(0)) fn();
  };
  if (typeof requestIdleCallback === 'function') requestIdleCallback(flush, { timeout: IDLE_TIMEOUT_MS });
  else setTimeout(flush, 0);
}

/** page_load once per page load, plus guest_visit when no token is stored. */
export function logPageLoad(path: string): void {
  if (loadLogged) return;
  loadLogged = true;
  whenIdle(() => {
    void logActivity('page_load', { path });
    if (!getToken()) void logActivity('guest_visit', { path });
  });
}

export function logRouteChange(from: string, to: string): void {
  whenIdle(() => void logActivity('route_change', { from, to }));
}

/** For tests. */
export function resetActivityState(): void {
  loadLogged = false;
  queue.length = 0;
}
