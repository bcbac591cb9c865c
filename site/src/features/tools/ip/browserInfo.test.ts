import { describe, expect, it, vi } from 'vitest';
import {
  collectBrowserInfo,
  formatBytes,
  localFigure,
  formatOffset,
  navigationTypeName,
  percentOf,
  supportSummary,
  type BrowserEnv,
} from './browserInfo';

const CHROME_WIN =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const IPAD_DESKTOP_MODE =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15';
const ANDROID_TABLET =
  'Mozilla/5.0 (Linux; Android 13; SM-X700) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';

function env(nav: Record<string, unknown>, extra: Partial<BrowserEnv> = {}): BrowserEnv {
  return {
    nav: { language: 'uk-UA', languages: ['uk-UA', 'en'], cookieEnabled: true, onLine: true, maxTouchPoints: 0, ...nav } as unknown as Navigator,
    global: { fetch: () => 0, WebAssembly: {}, localStorage: {}, isSecureContext: true, crypto: { subtle: {} } },
    screen: { width: 1920, height: 1080, colorDepth: 24 },
    viewport: { width: 1280, height: 720 },
    location: { origin: 'http://127.0.0.1', pathname: '/tools/ip', search: '?a=1', hash: '#x' },
    referrer: '',
    performance: undefined,
    timezone: 'Europe/Kyiv',
    timezoneOffset: -120,
    createCanvas: () => null,
    ...extra,
  };
}

describe('collectBrowserInfo', () => {
  it.each([
    ['Windows Chrome', CHROME_WIN, 0, 'desktop'],
    ['iPhone Safari', IPHONE, 5, 'mobile'],
    ['iPad in desktop mode (a Mac with touch)', IPAD_DESKTOP_MODE, 5, 'tablet'],
    ['Mac without touch', IPAD_DESKTOP_MODE, 0, 'desktop'],
    ['Android tablet (no "Mobile")', ANDROID_TABLET, 5, 'tablet'],
  ])('device type: %s', async (_name, userAgent, maxTouchPoints, want) => {
    const info = await collectBrowserInfo(env({ userAgent, maxTouchPoints }));
    expect(info.device.type).toBe(want);
  });

  it('Client Hints mobile makes an unknown device mobile, and high-entropy hints are kept', async () => {
    const info = await collectBrowserInfo(
      env({
        userAgent: CHROME_WIN,
        userAgentData: {
          brands: [{ brand: 'Google Chrome', version: '130' }],
          mobile: true,
          platform: 'Windows',
          getHighEntropyValues: async () => ({ platformVersion: '15.0.0', model: '' }),
        },
      }),
    );
    expect(info.device.type).toBe('mobile');
    expect(info.clientHints).toMatchObject({ brands: ['Google Chrome 130'], mobile: true, platform: 'Windows', platformVersion: '15.0.0' });
    // platformVersion 13+ is Windows 11, which the User-Agent still calls 10.
    expect(info.os).toEqual({ name: 'Windows', version: '11' });
    expect(info.browser).toEqual({ name: 'Chrome', version: '130.0.0.0' });
    expect(info.engine.name).toBe('Blink');
  });

  it('reports what is not there as unknown, and the system and location parts', async () => {
    const info = await collectBrowserInfo(env({ userAgent: IPHONE }));
    expect(info.connection).toEqual({ onLine: true, effectiveType: 'unknown', downlink: 'unknown', rtt: 'unknown', saveData: 'unknown' });
    expect(info.system).toMatchObject({
      language: 'uk-UA',
      languages: ['uk-UA', 'en'],
      hardwareConcurrency: 'unknown',
      deviceMemory: 'unknown',
      screenResolution: { width: 1920, height: 1080 },
      viewportSize: { width: 1280, height: 720 },
      colorDepth: 24,
      timezone: 'Europe/Kyiv',
      timezoneOffset: -120,
      cookieEnabled: true,
    });
    expect(info.location).toEqual({ origin: 'http://127.0.0.1', pathname: '/tools/ip', search: '?a=1', hash: '#x', referrer: '' });
    expect(info.clientHints).toBeNull();
    expect(info.performance).toBeNull();
    expect(info.webgl.supported).toBe(false);
    expect(info.webAPIs.fetch).toBe(true);
    expect(info.webAPIs.webSocket).toBe(false);
    expect(info.security.subtleCrypto).toBe(true);
  });

  it('takes its costly steps one task each, none in the task that asks for the report', async () => {
    // Each step is recorded with the task it ran in: 0 is the one that asked, and each pause
    // ends one.
    const steps: string[] = [];
    let task = 0;
    const waiting: (() => void)[] = [];
    const pause = () =>
      new Promise<void>((resolve) =>
        waiting.push(() => {
          task++;
          resolve();
        }),
      );
    const e = env({});
    Object.defineProperty(e.nav, 'userAgent', {
      get: () => {
        steps.push(`${task}:userAgent`);
        return CHROME_WIN;
      },
    });
    Object.defineProperty(e, 'timezone', {
      get: () => {
        steps.push(`${task}:timezone`);
        return 'Europe/Kyiv';
      },
    });
    e.createCanvas = () => {
      steps.push(`${task}:canvas`);
      return null;
    };
    let done = false;
    const collecting = collectBrowserInfo(e, pause).then((info) => {
      done = true;
      return info;
    });
    // Each pause ends a task: let the collector run up to the next one, then release it.
    for (let pauses = 0; !done && pauses < 10; pauses++) {
      await vi.waitFor(() => expect(waiting.length > 0 || done).toBe(true));
      waiting.shift()?.();
    }
    const info = await collecting;
    // none in the asking task; the user-agent parse has a task of its own between the read of
    // the User-Agent (1) and the time zone (3); the time zone, the WebGL and the 2D canvas
    // context each come in a task of their own
    expect(steps).toEqual(['1:userAgent', '3:timezone', '4:canvas', '5:canvas']);
    expect(info.system.timezone).toBe('Europe/Kyiv');
    expect(info.browser.name).toBe('Chrome');
  });

  it('reads the connection', async () => {
    const info = await collectBrowserInfo(
      env({ userAgent: CHROME_WIN, connection: { effectiveType: '4g', downlink: 10, rtt: 50, saveData: false } }),
    );
    expect(info.connection).toEqual({ onLine: true, effectiveType: '4g', downlink: 10, rtt: 50, saveData: false });
  });

  it.each([
    [0, 'Navigate'],
    [1, 'Reload'],
    [2, 'Back/Forward'],
    [255, 'Reserved'],
  ])('performance: legacy navigation type %i is %s, memory in bytes units', async (code, name) => {
    const performance = {
      getEntriesByType: () => [],
      navigation: { type: code, redirectCount: 1 },
      memory: { usedJSHeapSize: 10 * 1024 * 1024, totalJSHeapSize: 1536, jsHeapSizeLimit: 4 * 1024 ** 3 },
    } as unknown as Performance;
    const info = await collectBrowserInfo(env({ userAgent: CHROME_WIN }, { performance }));
    expect(info.performance?.navigation).toEqual({ type: name, redirectCount: 1 });
    expect(info.performance?.memory).toEqual({ usedJSHeapSize: '10 MB', totalJSHeapSize: '1.5 KB', jsHeapSizeLimit: '4 GB' });
  });

  it('performance from a navigation timing entry', async () => {
    const entry = {
      type: 'back_forward',
      redirectCount: 0,
      requestStart: 10,
      responseStart: 35,
      domainLookupStart: 2,
      domainLookupEnd: 5,
      domContentLoadedEventEnd: 120.4,
      loadEventEnd: 200.6,
    };
    const performance = { getEntriesByType: () => [entry] } as unknown as Performance;
    const info = await collectBrowserInfo(env({ userAgent: CHROME_WIN }, { performance }));
    expect(info.performance).toEqual({
      memory: null,
      timing: { domContentLoaded: 120, load: 201, firstByte: 25, dns: 3 },
      navigation: { type: 'Back/Forward', redirectCount: 0 },
    });
  });
});

describe('navigationTypeName', () => {
  it.each([
    [0, 'Navigate'],
    [1, 'Reload'],
    [2, 'Back/Forward'],
    [255, 'Reserved'],
    [7, 'unknown'],
    ['navigate', 'Navigate'],
    ['reload', 'Reload'],
    ['back_forward', 'Back/Forward'],
    [undefined, 'unknown'],
  ])('%s → %s', (code, want) => expect(navigationTypeName(code)).toBe(want));
});

describe('formatBytes', () => {
  it.each([
    [0, '0 Bytes'],
    [512, '512 Bytes'],
    [1024, '1 KB'],
    [1536, '1.5 KB'],
    [1234567, '1.18 MB'],
    [1024 ** 3, '1 GB'],
    [5.5 * 1024 ** 4, '5632 GB'],
    [-1, 'unknown'],
    [null, 'unknown'],
    [Number.NaN, 'unknown'],
  ])('%s → %s', (n, want) => expect(formatBytes(n)).toBe(want));
});

describe('web API support', () => {
  it('supported over total per group and overall, rounded', () => {
    const s = supportSummary({
      webAPIs: { a: true, b: false, c: false },
      media: { a: true, b: true },
      storage: { a: false },
      security: {},
      sensors: { a: true, b: false, c: false, d: false, e: false, f: false },
    });
    expect(s.groups.map((g) => [g.group, g.supported, g.total, g.percent])).toEqual([
      ['webAPIs', 1, 3, 33],
      ['media', 2, 2, 100],
      ['storage', 0, 1, 0],
      ['security', 0, 0, 0],
      ['sensors', 1, 6, 17],
    ]);
    expect([s.supported, s.total, s.percent]).toEqual([4, 12, 33]);
  });

  it.each([
    [2, 3, 67],
    [1, 8, 13],
    [0, 0, 0],
  ])('percentOf(%i, %i) = %i', (a, b, want) => expect(percentOf(a, b)).toBe(want));
});

describe('formatOffset', () => {
  it.each([
    [-120, 'UTC+02:00'],
    [0, 'UTC+00:00'],
    [300, 'UTC-05:00'],
    [-330, 'UTC+05:30'],
  ])('%i → %s', (m, want) => expect(formatOffset(m)).toBe(want));
});

describe('localFigure', () => {
  it.each([
    ['1.5 GB', 'uk', '1,5 GB'],
    ['1.5 GB', 'en', '1.5 GB'],
    ['512 Bytes', 'ru', '512 Bytes'],
    ['12.34 MB', 'ru', '12,34 MB'],
    ['unknown', 'uk', 'unknown'],
  ])('%s in %s → %s', (text, lang, want) => expect(localFigure(text, lang)).toBe(want));
});
