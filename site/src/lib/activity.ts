// Activity logging (spec §7): POST /api/activity/log. Failures are swallowed: logging must
// never break a page, reject unhandled, or write to console.error.
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

/** page_load once per page load, plus guest_visit when no token is stored. */
export function logPageLoad(path: string): void {
  if (loadLogged) return;
  loadLogged = true;
  void logActivity('page_load', { path });
  if (!getToken()) void logActivity('guest_visit', { path });
}

export function logRouteChange(from: string, to: string): void {
  void logActivity('route_change', { from, to });
}

/** For tests. */
export function resetActivityState(): void {
  loadLogged = false;
}
