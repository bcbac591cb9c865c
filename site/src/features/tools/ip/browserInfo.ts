// The browser information collector of the IP report: what the browser says about itself, its system, connection, performance and
// capabilities. Everything is read locally; nothing is sent anywhere. The collector takes its
// environment as an argument so tests can hand it a stubbed navigator.
import { UAParser } from 'ua-parser-js';
import { detectDeviceType, timeZoneName, type DeviceType } from '../../../lib/clientInfo';
import { yieldToMain } from '../../../lib/yieldToMain';
import { formatNumber } from '../../../lib/numberFormat';

/** A value the browser does not report. */
export const UNKNOWN = 'unknown';

/** Spec §9: 0 Navigate, 1 Reload, 2 Back/Forward, 255 Reserved. */
export const NAVIGATION_TYPES: Record<number, string> = { 0: 'Navigate', 1: 'Reload', 2: 'Back/Forward', 255: 'Reserved' };

export function navigationTypeName(code: number | string | null | undefined): string {
  if (typeof code === 'number') return NAVIGATION_TYPES[code] ?? UNKNOWN;
  // PerformanceNavigationTiming.type names the same four kinds in words.
  switch (code) {
    case 'navigate':
      return NAVIGATION_TYPES[0];
    case 'reload':
      return NAVIGATION_TYPES[1];
    case 'back_forward':
      return NAVIGATION_TYPES[2];
    case 'prerender':
      return NAVIGATION_TYPES[255];
    default:
      return UNKNOWN;
  }
}

/**
 * A figure the report keeps as English text ("1.5 GB", also in its exported JSON) in the reader's
 * number format ("1,5 GB"); any other text as it is.
 */
export function localFigure(text: string, lang: string): string {
  const m = /^(\d+(?:\.\d+)?)(\s.*)?$/.exec(text);
  return m ? `${formatNumber(Number(m[1]), lang)}${m[2] ?? ''}` : text;
}

/** Spec §9: Bytes, KB, MB, GB with factor 1024 and two decimals. */
export function formatBytes(bytes: number | null | undefined): string {
  if (typeof bytes !== 'number' || !Number.isFinite(bytes) || bytes < 0) return UNKNOWN;
  if (bytes === 0) return '0 Bytes';
  const units = ['Bytes', 'KB', 'MB', 'GB'];
  const i = Math.min(units.length - 1, Math.floor(Math.log(bytes) / Math.log(1024)));
  return `${parseFloat((bytes / 1024 ** i).toFixed(2))} ${units[i]}`;
}

export interface ClientHints {
  brands: string[];
  mobile: boolean;
  platform: string;
  platformVersion?: string;
  model?: string;
  architecture?: string;
  fullVersionList?: string[];
}

export interface SupportGroup {
  [feature: string]: boolean;
}

export interface BrowserInfo {
  browser: { name: string; version: string };
  engine: { name: string; version: string };
  os: { name: string; version: string };
  device: { type: DeviceType; vendor: string; model: string };
  system: {
    platform: string;
    language: string;
    languages: string[];
    hardwareConcurrency: number | string;
    deviceMemory: number | string;
    screenResolution: { width: number; height: number };
    viewportSize: { width: number; height: number };
    colorDepth: number;
    timezone: string;
    timezoneOffset: number;
    maxTouchPoints: number;
    cookieEnabled: boolean;
  };
  connection: {
    onLine: boolean;
    effectiveType: string;
    downlink: number | string;
    rtt: number | string;
    saveData: boolean | string;
  };
  /** null: this browser gives no performance data. */
  performance: {
    memory: { usedJSHeapSize: string; totalJSHeapSize: string; jsHeapSizeLimit: string } | null;
    timing: { domContentLoaded: number | null; load: number | null; firstByte: number | null; dns: number | null };
    navigation: { type: string; redirectCount: number };
  } | null;
  webgl: { supported: boolean; version: string; vendor: string; renderer: string };
  canvas: { supported: boolean };
  media: SupportGroup;
  storage: SupportGroup;
  security: SupportGroup;
  sensors: SupportGroup;
  webAPIs: SupportGroup;
  location: { origin: string; pathname: string; search: string; hash: string; referrer: string };
  clientHints: ClientHints | null;
  userAgent: string;
}

/** The five groups of the web API support panel. */
export const SUPPORT_GROUPS = ['webAPIs', 'media', 'storage', 'security', 'sensors'] as const;
export type SupportGroupName = (typeof SUPPORT_GROUPS)[number];

/** What the collector reads; the defaults are the real browser's objects. */
export interface BrowserEnv {
  nav: Navigator;
  /** The global object features are looked up on (window). */
  global: Record<string, unknown>;
  screen: { width: number; height: number; colorDepth: number };
  viewport: { width: number; height: number };
  location: { origin: string; pathname: string; search: string; hash: string };
  referrer: string;
  performance: Performance | undefined;
  timezone: string;
  timezoneOffset: number;
  createCanvas: () => HTMLCanvasElement | null;
}

export function browserEnv(): BrowserEnv {
  return {
    nav: navigator,
    global: window as unknown as Record<string, unknown>,
    screen: { width: screen.width, height: screen.height, colorDepth: screen.colorDepth },
    viewport: { width: window.innerWidth, height: window.innerHeight },
    location: {
      origin: location.origin,
      pathname: location.pathname,
      search: location.search,
      hash: location.hash,
    },
    referrer: document.referrer,
    performance: typeof performance === 'undefined' ? undefined : performance,
    // Read when the collector comes to it, in a task of its own: where there is no Temporal the
    // answer builds the page's first Intl date formatter, the costliest single step here.
    get timezone() {
      return timeZoneName() || UNKNOWN;
    },
    timezoneOffset: new Date().getTimezoneOffset(),
    createCanvas: () => (typeof document === 'undefined' ? null : document.createElement('canvas')),
  };
}

type Nav = Navigator & {
  connection?: { effectiveType?: string; downlink?: number; rtt?: number; saveData?: boolean };
  deviceMemory?: number;
  userAgentData?: {
    brands?: { brand: string; version: string }[];
    mobile?: boolean;
    platform?: string;
    getHighEntropyValues?: (hints: string[]) => Promise<Record<string, unknown>>;
  };
};

const has = (obj: unknown, key: string) => obj != null && key in (obj as object);

/** Feature checks per group: each is a property on the global object or on navigator. */
function supportGroups(g: Record<string, unknown>, nav: Nav): Record<SupportGroupName, SupportGroup> {
  const md = nav.mediaDevices as unknown;
  return {
    webAPIs: {
      fetch: has(g, 'fetch'),
      webSocket: has(g, 'WebSocket'),
      webWorker: has(g, 'Worker'),
      serviceWorker: has(nav, 'serviceWorker'),
      webAssembly: has(g, 'WebAssembly'),
      webRTC: has(g, 'RTCPeerConnection'),
      notifications: has(g, 'Notification'),
      geolocation: has(nav, 'geolocation'),
      clipboard: has(nav, 'clipboard'),
      share: has(nav, 'share'),
      intersectionObserver: has(g, 'IntersectionObserver'),
      resizeObserver: has(g, 'ResizeObserver'),
    },
    media: {
      mediaDevices: md != null,
      getUserMedia: has(md, 'getUserMedia'),
      getDisplayMedia: has(md, 'getDisplayMedia'),
      mediaRecorder: has(g, 'MediaRecorder'),
      audioContext: has(g, 'AudioContext') || has(g, 'webkitAudioContext'),
      speechSynthesis: has(g, 'speechSynthesis'),
      pictureInPicture: has(g, 'PictureInPictureWindow'),
      mediaSession: has(nav, 'mediaSession'),
    },
    storage: {
      localStorage: has(g, 'localStorage'),
      sessionStorage: has(g, 'sessionStorage'),
      indexedDB: has(g, 'indexedDB'),
      cacheStorage: has(g, 'caches'),
      storageManager: has(nav, 'storage'),
      cookies: nav.cookieEnabled === true,
    },
    security: {
      secureContext: g.isSecureContext === true,
      crypto: has(g, 'crypto'),
      subtleCrypto: has(g.crypto, 'subtle'),
      credentials: has(nav, 'credentials'),
      webAuthn: has(g, 'PublicKeyCredential'),
      permissions: has(nav, 'permissions'),
      crossOriginIsolated: g.crossOriginIsolated === true,
    },
    sensors: {
      deviceOrientation: has(g, 'DeviceOrientationEvent'),
      deviceMotion: has(g, 'DeviceMotionEvent'),
      accelerometer: has(g, 'Accelerometer'),
      gyroscope: has(g, 'Gyroscope'),
      magnetometer: has(g, 'Magnetometer'),
      ambientLight: has(g, 'AmbientLightSensor'),
      vibration: has(nav, 'vibrate'),
      battery: has(nav, 'getBattery'),
    },
  };
}

export interface SupportSummary {
  group: SupportGroupName;
  supported: number;
  total: number;
  percent: number;
}

/** Supported over total per group, and a rounded percentage. */
export function supportSummary(info: Pick<BrowserInfo, SupportGroupName>): {
  groups: SupportSummary[];
  supported: number;
  total: number;
  percent: number;
} {
  const groups = SUPPORT_GROUPS.map((group) => {
    const values = Object.values(info[group]);
    const supported = values.filter(Boolean).length;
    return { group, supported, total: values.length, percent: percentOf(supported, values.length) };
  });
  const supported = groups.reduce((n, g) => n + g.supported, 0);
  const total = groups.reduce((n, g) => n + g.total, 0);
  return { groups, supported, total, percent: percentOf(supported, total) };
}

export function percentOf(part: number, total: number): number {
  return total > 0 ? Math.round((part / total) * 100) : 0;
}

function webglInfo(createCanvas: () => HTMLCanvasElement | null): BrowserInfo['webgl'] {
  const none = { supported: false, version: UNKNOWN, vendor: UNKNOWN, renderer: UNKNOWN };
  try {
    const canvas = createCanvas();
    if (!canvas) return none;
    const gl = (canvas.getContext('webgl2') ?? canvas.getContext('webgl')) as WebGLRenderingContext | null;
    if (!gl || typeof gl.getParameter !== 'function') return none;
    const dbg = gl.getExtension('WEBGL_debug_renderer_info');
    return {
      supported: true,
      version: String(gl.getParameter(gl.VERSION) ?? UNKNOWN),
      vendor: String(gl.getParameter(dbg ? dbg.UNMASKED_VENDOR_WEBGL : gl.VENDOR) ?? UNKNOWN),
      renderer: String(gl.getParameter(dbg ? dbg.UNMASKED_RENDERER_WEBGL : gl.RENDERER) ?? UNKNOWN),
    };
  } catch {
    return none;
  }
}

function canvasSupported(createCanvas: () => HTMLCanvasElement | null): boolean {
  try {
    const c = createCanvas();
    return !!c && typeof c.getContext === 'function' && c.getContext('2d') != null;
  } catch {
    return false;
  }
}

type PerfWithMemory = Performance & {
  memory?: { usedJSHeapSize: number; totalJSHeapSize: number; jsHeapSizeLimit: number };
  navigation?: { type: number; redirectCount: number };
};

function performanceInfo(perf: Performance | undefined): BrowserInfo['performance'] {
  const p = perf as PerfWithMemory | undefined;
  if (!p || typeof p.getEntriesByType !== 'function') return null;
  const nav = p.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
  if (!nav && !p.navigation) return null;
  const ms = (v: number | undefined) => (typeof v === 'number' && v > 0 ? Math.round(v) : null);
  return {
    memory: p.memory
      ? {
          usedJSHeapSize: formatBytes(p.memory.usedJSHeapSize),
          totalJSHeapSize: formatBytes(p.memory.totalJSHeapSize),
          jsHeapSizeLimit: formatBytes(p.memory.jsHeapSizeLimit),
        }
      : null,
    timing: {
      domContentLoaded: ms(nav?.domContentLoadedEventEnd),
      load: ms(nav?.loadEventEnd),
      firstByte: ms(nav ? nav.responseStart - nav.requestStart : undefined),
      dns: nav ? Math.max(0, Math.round(nav.domainLookupEnd - nav.domainLookupStart)) : null,
    },
    navigation: {
      type: p.navigation ? navigationTypeName(p.navigation.type) : navigationTypeName(nav?.type),
      redirectCount: p.navigation?.redirectCount ?? nav?.redirectCount ?? 0,
    },
  };
}

/** Low-entropy hints at once; the high-entropy ones when the browser gives them. */
export async function clientHints(nav: Nav): Promise<ClientHints | null> {
  const d = nav.userAgentData;
  if (!d) return null;
  const hints: ClientHints = {
    brands: (d.brands ?? []).map((b) => `${b.brand} ${b.version}`),
    mobile: d.mobile === true,
    platform: d.platform ?? '',
  };
  try {
    const high = await d.getHighEntropyValues?.(['platformVersion', 'model', 'architecture', 'fullVersionList']);
    if (high) {
      if (typeof high.platformVersion === 'string') hints.platformVersion = high.platformVersion;
      if (typeof high.model === 'string') hints.model = high.model;
      if (typeof high.architecture === 'string') hints.architecture = high.architecture;
      if (Array.isArray(high.fullVersionList)) {
        hints.fullVersionList = (high.fullVersionList as { brand: string; version: string }[]).map(
          (b) => `${b.brand} ${b.version}`,
        );
      }
    }
  } catch {
    /* the browser declined: the low-entropy hints stand */
  }
  return hints;
}

/** Device type: Mobile, Tablet, otherwise desktop. */
export function deviceTypeOf(uaDeviceType: string | undefined, userAgent: string, maxTouchPoints: number, hintsMobile?: boolean): DeviceType {
  if (uaDeviceType === 'mobile' || uaDeviceType === 'wearable') return 'mobile';
  if (uaDeviceType === 'tablet') return 'tablet';
  if (hintsMobile) return 'mobile';
  return detectDeviceType(userAgent, maxTouchPoints);
}

const orUnknown = (v: unknown) => (typeof v === 'string' && v ? v : UNKNOWN);
const numOrUnknown = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : UNKNOWN);

/**
 * The whole report. It is asked for when the page mounts, beside its first render, so its costly
 * steps (reading the window, the user-agent parse, the time zone, a WebGL and a 2D canvas
 * context: each tens of milliseconds on a phone) are taken one task each: `pause` ends the
 * task between them (see yieldToMain); together they were one long task that blocked input
 * while the page loaded.
 */
export async function collectBrowserInfo(
  given?: BrowserEnv,
  pause: () => Promise<void> = yieldToMain,
): Promise<BrowserInfo> {
  // Not in the task that asked (the page's mount): reading the viewport lays the page out.
  await pause();
  const env = given ?? browserEnv();
  const nav = env.nav as Nav;
  const ua = nav.userAgent ?? '';
  const hints = await clientHints(nav);
  await pause();
  const parsed = new UAParser(ua).getResult();
  await pause();
  const timezone = env.timezone;
  await pause();
  const webgl = webglInfo(env.createCanvas);
  await pause();
  const conn = nav.connection;
  // Windows 11 reports itself as Windows 10 in the User-Agent; the hint tells (13+ is 11).
  let osVersion = orUnknown(parsed.os.version);
  if (parsed.os.name === 'Windows' && hints?.platformVersion) {
    osVersion = parseInt(hints.platformVersion, 10) >= 13 ? '11' : osVersion;
  } else if (hints?.platformVersion && osVersion === UNKNOWN) {
    osVersion = hints.platformVersion;
  }
  const groups = supportGroups(env.global, nav);
  return {
    browser: { name: orUnknown(parsed.browser.name), version: orUnknown(parsed.browser.version) },
    engine: { name: orUnknown(parsed.engine.name), version: orUnknown(parsed.engine.version) },
    os: { name: orUnknown(parsed.os.name ?? hints?.platform), version: osVersion },
    device: {
      type: deviceTypeOf(parsed.device.type, ua, nav.maxTouchPoints ?? 0, hints?.mobile),
      vendor: orUnknown(parsed.device.vendor),
      model: orUnknown(parsed.device.model ?? hints?.model),
    },
    system: {
      platform: orUnknown(hints?.platform || nav.platform),
      language: orUnknown(nav.language),
      languages: Array.from(nav.languages ?? (nav.language ? [nav.language] : [])),
      hardwareConcurrency: numOrUnknown(nav.hardwareConcurrency),
      deviceMemory: numOrUnknown(nav.deviceMemory),
      screenResolution: { width: env.screen.width, height: env.screen.height },
      viewportSize: { width: env.viewport.width, height: env.viewport.height },
      colorDepth: env.screen.colorDepth,
      timezone,
      timezoneOffset: env.timezoneOffset,
      maxTouchPoints: nav.maxTouchPoints ?? 0,
      cookieEnabled: nav.cookieEnabled === true,
    },
    connection: {
      onLine: nav.onLine !== false,
      effectiveType: orUnknown(conn?.effectiveType),
      downlink: numOrUnknown(conn?.downlink),
      rtt: numOrUnknown(conn?.rtt),
      saveData: typeof conn?.saveData === 'boolean' ? conn.saveData : UNKNOWN,
    },
    performance: performanceInfo(env.performance),
    webgl,
    canvas: { supported: canvasSupported(env.createCanvas) },
    ...groups,
    location: { ...env.location, referrer: env.referrer },
    clientHints: hints,
    userAgent: ua,
  };
}

/** "+02:00" from getTimezoneOffset's minutes (which are negative east of UTC). */
export function formatOffset(minutes: number): string {
  const east = -minutes;
  const sign = east >= 0 ? '+' : '-';
  const abs = Math.abs(east);
  return `UTC${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}
