// The client-information part of an activity event.

export type DeviceType = 'mobile' | 'tablet' | 'desktop';

export interface ConnectionInfo {
  effectiveType: string | null;
  downlink: number | null;
  rtt: number | null;
}

export interface ClientInfo {
  userAgent: string;
  language: string;
  timeZone: string;
  screenWidth: number;
  screenHeight: number;
  colorDepth: number;
  referrer: string;
  platform: string;
  vendor: string;
  connection: ConnectionInfo | null;
  deviceMemory: number | null;
  hardwareConcurrency: number | null;
  deviceType: DeviceType;
}

/** Tablet and mobile from the user agent (iPadOS reports itself as a Mac with touch). */
export function detectDeviceType(userAgent: string, maxTouchPoints = 0): DeviceType {
  const ua = userAgent.toLowerCase();
  if (/ipad|tablet|playbook|silk|kindle/.test(ua) || (/android/.test(ua) && !/mobile/.test(ua))) {
    return 'tablet';
  }
  if (/macintosh/.test(ua) && maxTouchPoints > 1) return 'tablet';
  if (/mobi|iphone|ipod|android|blackberry|iemobile|opera mini|windows phone/.test(ua)) {
    return 'mobile';
  }
  return 'desktop';
}

interface NavigatorExtras {
  connection?: { effectiveType?: string; downlink?: number; rtt?: number };
  deviceMemory?: number;
}

/** Temporal where the browser has it (not yet in TypeScript's DOM types). */
type WithTemporal = typeof globalThis & { Temporal?: { Now?: { timeZoneId?: () => string } } };

/**
 * The IANA time zone. Temporal answers at no cost; Intl.DateTimeFormat is the fallback, but the
 * first date formatter a page builds loads the locale's date data — 10 to 100 ms of main thread,
 * which the activity log sent at every page load must not cost where Temporal exists.
 */
export function timeZoneName(g: WithTemporal = globalThis): string {
  try {
    const id = g.Temporal?.Now?.timeZoneId?.();
    if (id) return id;
  } catch {
    /* fall back to Intl */
  }
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone ?? '';
  } catch {
    return ''; // no Intl time zone
  }
}

export function collectClientInfo(): ClientInfo {
  const nav = navigator as Navigator & NavigatorExtras;
  const conn = nav.connection;
  const timeZone = timeZoneName();
  return {
    userAgent: nav.userAgent,
    language: nav.language,
    timeZone,
    screenWidth: window.screen?.width ?? 0,
    screenHeight: window.screen?.height ?? 0,
    colorDepth: window.screen?.colorDepth ?? 0,
    referrer: document.referrer,
    platform: nav.platform ?? '',
    vendor: nav.vendor ?? '',
    connection: conn
      ? {
          effectiveType: conn.effectiveType ?? null,
          downlink: typeof conn.downlink === 'number' ? conn.downlink : null,
          rtt: typeof conn.rtt === 'number' ? conn.rtt : null,
        }
      : null,
    deviceMemory: typeof nav.deviceMemory === 'number' ? nav.deviceMemory : null,
    hardwareConcurrency: typeof nav.hardwareConcurrency === 'number' ? nav.hardwareConcurrency : null,
    deviceType: detectDeviceType(nav.userAgent, nav.maxTouchPoints ?? 0),
  };
}
