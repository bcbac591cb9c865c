import { describe, expect, it } from 'vitest';
import { UAParser } from 'ua-parser-js';
import type { IpInfo } from '../../../lib/ipInfo';
import type { BrowserInfo } from './browserInfo';
import { acceptLanguageTags, consistencyRows, exportData, exportFileName, flagFromCode, shareText, zoneOffset } from './report';
import { ruTime } from './IpPage';
import { parseCandidate, summariseCandidates } from './checks';

function browser(over: Partial<{ tz: string; langs: string[]; os: string; name: string; type: 'mobile' | 'desktop' | 'tablet'; hints: BrowserInfo['clientHints'] }> = {}) {
  return {
    browser: { name: over.name ?? 'Chrome', version: '130.0.0.0' },
    os: { name: over.os ?? 'Windows', version: '10' },
    device: { type: over.type ?? 'desktop', vendor: 'unknown', model: 'unknown' },
    system: { timezone: over.tz ?? 'Europe/Kyiv', languages: over.langs ?? ['uk-UA', 'uk', 'en'] },
    clientHints: over.hints === undefined ? { brands: ['Not A(Brand 99', 'Google Chrome 130', 'Chromium 130'], mobile: false, platform: 'Windows' } : over.hints,
  } as unknown as BrowserInfo;
}

const ipUA: IpInfo = {
  ip: '81.1.2.3',
  country: 'Ukraine',
  countryCode: 'UA',
  timezone: 'Europe/Kyiv',
  acceptLanguage: 'uk-UA,uk;q=0.9,en;q=0.8',
};

const byKey = (rows: ReturnType<typeof consistencyRows>) => Object.fromEntries(rows.map((r) => [r.key, r]));

describe('consistencyRows', () => {
  const at = new Date('2026-07-01T12:00:00Z');

  it('a consistent visitor passes every row, with both values shown', () => {
    const rows = byKey(consistencyRows(ipUA, browser(), at));
    expect(Object.values(rows).map((r) => r.status)).toEqual(['pass', 'pass', 'pass', 'pass', 'pass', 'pass']);
    expect(rows.timezone).toMatchObject({ ipSide: 'Europe/Kyiv', browserSide: 'Europe/Kyiv' });
    expect(rows.country).toMatchObject({ ipSide: 'Ukraine (UA)', browserSide: 'uk-UA, uk, en' });
    expect(rows.acceptLanguage).toMatchObject({ ipSide: 'uk-UA,uk;q=0.9,en;q=0.8', browserSide: 'uk-UA, uk, en' });
    expect(rows.brands).toMatchObject({ ipSide: 'Chrome 130.0.0.0' });
  });

  it.each([
    ['time zone elsewhere', { tz: 'America/New_York' }, 'timezone', 'mismatch'],
    ['same offset, other zone name (alias)', { tz: 'Europe/Kiev' }, 'timezone', 'pass'],
    ['languages of another country', { langs: ['ja-JP'] }, 'country', 'mismatch'],
    ['UA platform differs from the hints', { os: 'Linux' }, 'platform', 'mismatch'],
    ['UA browser not among the brands', { name: 'Firefox' }, 'brands', 'mismatch'],
    ['UA says mobile, hints say not', { type: 'mobile' as const }, 'mobile', 'mismatch'],
    ['no Client Hints: unknown, never a pass', { hints: null }, 'platform', 'unknown'],
    ['no Client Hints: mobile unknown', { hints: null }, 'mobile', 'unknown'],
    ['navigator.languages not what the server saw', { langs: ['en-US', 'en'] }, 'acceptLanguage', 'mismatch'],
  ])('%s', (_name, over, key, want) => {
    expect(byKey(consistencyRows(ipUA, browser(over), at))[key].status).toBe(want);
  });

  it('a region subtag matching the country passes', () => {
    const rows = byKey(consistencyRows({ ...ipUA, country: 'Iceland', countryCode: 'IS' }, browser({ langs: ['en-IS'] }), at));
    expect(rows.country.status).toBe('pass');
  });

  it('Unknown from the server makes the rows unknown', () => {
    const rows = byKey(
      consistencyRows({ ip: '127.0.0.1', country: 'Unknown', countryCode: 'Unknown', timezone: 'Unknown' }, browser(), at),
    );
    expect(rows.timezone).toMatchObject({ status: 'unknown', ipSide: 'Unknown' });
    expect(rows.country).toMatchObject({ status: 'unknown', ipSide: 'Unknown' });
    expect(rows.acceptLanguage.status).toBe('unknown');
  });

  it('acceptLanguageTags drops weights and *', () => {
    expect(acceptLanguageTags('uk-UA, uk;q=0.9,*;q=0.1')).toEqual(['uk-UA', 'uk']);
  });
});

describe('export', () => {
  it('names the file by the local date', () => {
    expect(exportFileName(new Date(2026, 0, 5, 23, 59))).toBe('ip-browser-info-2026-01-05.json');
    expect(exportFileName(new Date(2026, 10, 23))).toBe('ip-browser-info-2026-11-23.json');
  });

  it('holds an ISO timestamp, ip and browser', () => {
    const at = new Date('2026-11-23T07:00:00.000Z');
    const b = browser();
    const data = exportData(ipUA, b, at);
    expect(Object.keys(data)).toEqual(['timestamp', 'ip', 'browser']);
    expect(data).toEqual({ timestamp: '2026-11-23T07:00:00.000Z', ip: ipUA, browser: b });
    expect(JSON.parse(JSON.stringify(data)).ip.ip).toBe('81.1.2.3');
  });
});

describe('shareText', () => {
  it('leaves an unknown version out instead of writing "unknown"', () => {
    const b = browser();
    expect(shareText(ipUA, b)).toBe('IP: 81.1.2.3\nLocation: Ukraine\nISP: Unknown\nBrowser: Chrome 130.0.0.0\nOS: Windows 10');
    const linux = { ...b, os: { name: 'Linux', version: 'unknown' }, browser: { name: 'unknown', version: 'unknown' } } as BrowserInfo;
    expect(shareText(ipUA, linux)).toBe('IP: 81.1.2.3\nLocation: Ukraine\nISP: Unknown\nBrowser: Unknown\nOS: Linux');
  });
});

describe('flagFromCode', () => {
  it.each([
    ['UA', '🇺🇦'],
    ['us', '🇺🇸'],
    ['DE', '🇩🇪'],
    ['Unknown', '🌐'],
    ['', '🌐'],
    [undefined, '🌐'],
    ['U1', '🌐'],
  ])('%s → %s', (code, want) => expect(flagFromCode(code)).toBe(want));
});

describe('WebRTC candidates', () => {
  it('parses the address and type', () => {
    expect(parseCandidate('candidate:1 1 udp 2122260223 192.168.1.5 54321 typ host generation 0')).toEqual({
      address: '192.168.1.5',
      type: 'host',
    });
    expect(parseCandidate('garbage')).toBeNull();
  });

  it('separates raw addresses (a leak) from mDNS names', () => {
    expect(
      summariseCandidates([
        'candidate:1 1 udp 2122260223 192.168.1.5 54321 typ host',
        'candidate:2 1 tcp 1518280447 192.168.1.5 9 typ host tcptype active',
        'candidate:3 1 udp 2122194687 fd00::5 54322 typ host',
        'candidate:4 1 udp 2122260223 3c1a2b4c-aaaa-bbbb.local 54323 typ host',
        'candidate:5 1 udp 1686052607 203.0.113.9 54321 typ srflx raddr 0.0.0.0 rport 0',
      ]),
    ).toEqual({ addresses: ['192.168.1.5', 'fd00::5'], mdns: 1 });
  });
});

describe('zoneOffset', () => {
  const at = new Date('2025-07-01T12:00:00Z');

  it('through Intl: GMT±hh:mm, GMT+00:00 for UTC, null for a bad name', () => {
    expect(zoneOffset('Europe/Kyiv', at, {} as typeof globalThis)).toBe('GMT+03:00');
    expect(zoneOffset('America/New_York', at, {} as typeof globalThis)).toBe('GMT-04:00');
    expect(zoneOffset('UTC', at, {} as typeof globalThis)).toBe('GMT+00:00');
    expect(zoneOffset('Not/A_Zone', at, {} as typeof globalThis)).toBeNull();
  });

  it('through Temporal where the browser has it, in the same form', () => {
    const offsets: Record<string, string> = { 'Europe/Kyiv': '+03:00', UTC: '+00:00' };
    const Temporal = {
      Instant: {
        fromEpochMilliseconds: (ms: number) => ({
          toZonedDateTimeISO: (tz: string) => {
            expect(ms).toBe(at.getTime());
            if (!(tz in offsets)) throw new RangeError(tz);
            return { offset: offsets[tz] };
          },
        }),
      },
    };
    const g = { Temporal } as unknown as typeof globalThis;
    expect(zoneOffset('Europe/Kyiv', at, g)).toBe(zoneOffset('Europe/Kyiv', at, {} as typeof globalThis));
    expect(zoneOffset('UTC', at, g)).toBe('GMT+00:00');
    expect(zoneOffset('Not/A_Zone', at, g)).toBeNull();
  });
});

describe('ruTime', () => {
  it('writes the local time as ru-RU does', () => {
    for (const ms of [Date.UTC(2025, 0, 1, 0, 0, 0), Date.UTC(2025, 5, 9, 9, 5, 3), Date.UTC(2025, 11, 31, 23, 59, 59)]) {
      expect(ruTime(ms)).toBe(new Date(ms).toLocaleTimeString('ru-RU'));
    }
  });
});

describe('consistencyRows with reduced and frozen User-Agents', () => {
  const at = new Date('2026-07-01T12:00:00Z');
  /** What the page knows of a real browser: its User-Agent parsed, and its Client Hints. */
  function real(ua: string, hints: NonNullable<BrowserInfo['clientHints']>): BrowserInfo {
    const p = new UAParser(ua).getResult();
    return {
      browser: { name: p.browser.name ?? 'unknown', version: p.browser.version ?? 'unknown' },
      os: { name: p.os.name ?? 'unknown', version: p.os.version ?? 'unknown' },
      device: { type: p.device.type === 'mobile' ? 'mobile' : p.device.type === 'tablet' ? 'tablet' : 'desktop', vendor: 'unknown', model: 'unknown' },
      system: { timezone: 'Europe/Kyiv', languages: ['uk-UA', 'uk', 'en'] },
      clientHints: hints,
    } as unknown as BrowserInfo;
  }
  const rows = (b: BrowserInfo) => byKey(consistencyRows(ipUA, b, at));
  const uaRows = (b: BrowserInfo) => [rows(b).platform.status, rows(b).brands.status, rows(b).mobile.status];

  it.each([
    [
      'headless Chromium (HeadlessChrome beside a Chromium brand)',
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36',
      { brands: ['Not:A-Brand 8', 'Chromium 156'], mobile: false, platform: 'Linux' },
    ],
    [
      'Chrome on Android, reduced ("Android 10; K", 130.0.0.0)',
      'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36',
      { brands: ['Chromium 130', 'Google Chrome 130', 'Not?A_Brand 99'], mobile: true, platform: 'Android', platformVersion: '14.0.0', model: 'Pixel 8' },
    ],
    [
      'Chrome on Windows 11, reduced ("Windows NT 10.0")',
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36',
      { brands: ['Google Chrome 130', 'Chromium 130', 'Not?A_Brand 99'], mobile: false, platform: 'Windows', platformVersion: '15.0.0' },
    ],
    [
      'Chrome on a Mac, frozen ("Mac OS X 10_15_7")',
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36',
      { brands: ['Google Chrome 130', 'Chromium 130'], mobile: false, platform: 'macOS', platformVersion: '14.5.0' },
    ],
    [
      'Edge, reduced',
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36 Edg/130.0.0.0',
      { brands: ['Microsoft Edge 130', 'Chromium 130', 'Not?A_Brand 99'], mobile: false, platform: 'Windows' },
    ],
  ])('%s is consistent', (_name, ua, hints) => {
    expect(uaRows(real(ua, hints))).toEqual(['pass', 'pass', 'pass']);
  });

  it('a User-Agent of another major version than the brands is a mismatch', () => {
    const b = real('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36', {
      brands: ['Google Chrome 130', 'Chromium 130'],
      mobile: false,
      platform: 'Windows',
    });
    expect(rows(b).brands.status).toBe('mismatch');
  });
});
