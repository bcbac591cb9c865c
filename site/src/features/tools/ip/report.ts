// The IP report's pure parts: the consistency rows (what the network says about the visitor
// against what the browser says), the export file and the country flag.
import type { IpInfo } from '../../../lib/ipInfo';
import type { BrowserInfo } from './browserInfo';

export type RowStatus = 'pass' | 'mismatch' | 'unknown';

export interface ConsistencyRow {
  /** i18n key under consistency.rows */
  key: 'timezone' | 'country' | 'platform' | 'brands' | 'mobile' | 'acceptLanguage';
  ipSide: string;
  browserSide: string;
  status: RowStatus;
}

const known = (v: string | undefined | null): v is string => !!v && v !== 'Unknown' && v !== 'unknown';

type TemporalInstant = { toZonedDateTimeISO(tz: string): { offset: string } };
type WithTemporal = typeof globalThis & { Temporal?: { Instant?: { fromEpochMilliseconds(ms: number): TemporalInstant } } };

/**
 * The zone's current UTC offset as "GMT+02:00" (Intl's longOffset), or null for a bad name.
 * Temporal first where the browser has it: the page's first Intl date formatter costs 10–100 ms
 * of main thread (see lib/clientInfo).
 */
export function zoneOffset(timeZone: string, at: Date = new Date(), g: WithTemporal = globalThis): string | null {
  const instant = g.Temporal?.Instant;
  if (instant) {
    try {
      return `GMT${instant.fromEpochMilliseconds(at.getTime()).toZonedDateTimeISO(timeZone).offset}`;
    } catch {
      return null; // not a zone name
    }
  }
  try {
    const part = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })
      .formatToParts(at)
      .find((p) => p.type === 'timeZoneName');
    return part?.value === 'GMT' ? 'GMT+00:00' : (part?.value ?? null);
  } catch {
    return null;
  }
}

/**
 * Main languages of countries (ISO 3166-1 → ISO 639-1). A country missing here is compared
 * by region subtag only (en-US matches US).
 */
const COUNTRY_LANGUAGES: Record<string, string[]> = {
  UA: ['uk', 'ru'], RU: ['ru'], BY: ['be', 'ru'], KZ: ['kk', 'ru'], PL: ['pl'], DE: ['de'], AT: ['de'],
  CH: ['de', 'fr', 'it'], FR: ['fr'], BE: ['nl', 'fr', 'de'], NL: ['nl'], LU: ['lb', 'fr', 'de'], IT: ['it'],
  ES: ['es', 'ca', 'gl', 'eu'], PT: ['pt'], BR: ['pt'], MX: ['es'], AR: ['es'], CL: ['es'], CO: ['es'], PE: ['es'],
  US: ['en', 'es'], GB: ['en'], IE: ['en', 'ga'], CA: ['en', 'fr'], AU: ['en'], NZ: ['en'], IN: ['hi', 'en'],
  ZA: ['en', 'af', 'zu', 'xh'], CN: ['zh'], TW: ['zh'], HK: ['zh', 'en'], JP: ['ja'], KR: ['ko'], TR: ['tr'],
  GR: ['el'], CZ: ['cs'], SK: ['sk'], HU: ['hu'], RO: ['ro'], MD: ['ro', 'ru'], BG: ['bg'], RS: ['sr'],
  HR: ['hr'], SI: ['sl'], LT: ['lt'], LV: ['lv', 'ru'], EE: ['et', 'ru'], FI: ['fi', 'sv'], SE: ['sv'],
  NO: ['no', 'nb', 'nn'], DK: ['da'], IS: ['is'], IL: ['he', 'ar'], SA: ['ar'], AE: ['ar', 'en'], EG: ['ar'],
  IR: ['fa'], GE: ['ka'], AM: ['hy'], AZ: ['az'], UZ: ['uz', 'ru'], VN: ['vi'], TH: ['th'], ID: ['id'],
  MY: ['ms', 'en'], SG: ['en', 'zh', 'ms'], PH: ['en', 'tl'],
};

function sameLanguageCountry(countryCode: string, languages: string[]): boolean {
  const cc = countryCode.toUpperCase();
  const langs = COUNTRY_LANGUAGES[cc] ?? [];
  return languages.some((tag) => {
    const [base, ...rest] = tag.toLowerCase().split(/[-_]/);
    return langs.includes(base) || rest.some((sub) => sub.toUpperCase() === cc);
  });
}

/** Accept-Language's tags in order, without weights. */
export function acceptLanguageTags(header: string): string[] {
  return header
    .split(',')
    .map((part) => part.split(';')[0].trim())
    .filter((tag) => tag && tag !== '*');
}

/**
 * Whether the User-Agent's browser is among the Client Hints brands, at the same major version.
 * The User-Agent may be reduced or frozen (Chrome's "Chrome/130.0.0.0", a headless build's
 * "HeadlessChrome/…" beside a "Chromium" brand): its name is taken without such qualifiers and
 * only the major version is compared, the one part a reduced User-Agent keeps.
 */
function brandMatches(browserName: string, browserVersion: string, brands: string[]): boolean {
  const name = browserName
    .toLowerCase()
    .replace(/^mobile\s+/, '')
    .replace(/\s+(headless|webview)$/, '');
  const aliases: Record<string, string[]> = {
    chrome: ['google chrome', 'chromium'],
    chromium: ['chromium'],
    edge: ['microsoft edge'],
    opera: ['opera'],
    yandex: ['yandex', 'yabrowser'],
    'samsung internet': ['samsung internet'],
  };
  const wanted = aliases[name] ?? [name];
  const major = /^(\d+)/.exec(browserVersion)?.[1];
  return brands.some((b) => {
    const brand = b.toLowerCase();
    if (!wanted.some((w) => brand.startsWith(w))) return false;
    const brandMajor = /\s(\d+)(?:\.[\d.]*)?$/.exec(brand)?.[1];
    return !major || !brandMajor || major === brandMajor;
  });
}

/** Client Hints' platform names against ua-parser's OS names. */
function samePlatform(osName: string, platform: string): boolean {
  const norm = (s: string) => {
    const v = s.toLowerCase().replace(/\s+/g, '');
    if (v === 'macos' || v === 'macosx' || v === 'mac') return 'macos';
    if (v === 'chromeos' || v === 'chromiumos') return 'chromeos';
    if (v === 'ubuntu' || v === 'debian' || v === 'fedora' || v === 'arch' || v === 'linux') return 'linux';
    return v;
  };
  return norm(osName) === norm(platform);
}

const status = (ok: boolean): RowStatus => (ok ? 'pass' : 'mismatch');

/**
 * The consistency report: each row sets what the network or the User-Agent says beside what
 * the browser's own APIs say. A side that is not known makes the row "unknown", never a pass.
 */
export function consistencyRows(ip: IpInfo, browser: BrowserInfo, at: Date = new Date()): ConsistencyRow[] {
  const rows: ConsistencyRow[] = [];
  const bz = browser.system.timezone;
  const iz = ip.timezone ?? '';
  let tzStatus: RowStatus = 'unknown';
  if (known(iz) && known(bz)) {
    const a = zoneOffset(iz, at);
    tzStatus = status(iz === bz || (a !== null && a === zoneOffset(bz, at)));
  }
  rows.push({ key: 'timezone', ipSide: iz || 'Unknown', browserSide: bz, status: tzStatus });

  const langs = browser.system.languages;
  const cc = ip.countryCode ?? '';
  rows.push({
    key: 'country',
    ipSide: known(cc) ? `${ip.country} (${cc})` : 'Unknown',
    browserSide: langs.join(', ') || 'unknown',
    status: known(cc) && langs.length ? status(sameLanguageCountry(cc, langs)) : 'unknown',
  });

  const hints = browser.clientHints;
  const na = 'unknown';
  rows.push({
    key: 'platform',
    ipSide: browser.os.name,
    browserSide: hints?.platform || na,
    status: hints?.platform && known(browser.os.name) ? status(samePlatform(browser.os.name, hints.platform)) : 'unknown',
  });
  rows.push({
    key: 'brands',
    ipSide: `${browser.browser.name} ${browser.browser.version}`.trim(),
    browserSide: hints?.brands.join(', ') || na,
    status: hints && hints.brands.length && known(browser.browser.name) ? status(brandMatches(browser.browser.name, browser.browser.version, hints.brands)) : 'unknown',
  });
  const uaMobile = browser.device.type === 'mobile';
  rows.push({
    key: 'mobile',
    ipSide: String(uaMobile),
    browserSide: hints ? String(hints.mobile) : na,
    status: hints ? status(hints.mobile === uaMobile) : 'unknown',
  });

  const header = ip.acceptLanguage;
  const tags = header ? acceptLanguageTags(header) : [];
  rows.push({
    key: 'acceptLanguage',
    ipSide: header || 'unknown',
    browserSide: langs.join(', ') || na,
    status:
      tags.length && langs.length
        ? status(tags.length === langs.length && tags.every((t, i) => t.toLowerCase() === langs[i].toLowerCase()))
        : 'unknown',
  });
  return rows;
}

/** The country's flag from its ISO code (regional indicator letters); a globe when unknown. */
export function flagFromCode(code: string | null | undefined): string {
  const cc = (code ?? '').trim().toUpperCase();
  if (!/^[A-Z]{2}$/.test(cc)) return '🌐';
  return String.fromCodePoint(...[...cc].map((c) => 0x1f1e6 + c.charCodeAt(0) - 65));
}

/** Spec §3: ip-browser-info-{YYYY-MM-DD}.json, the visitor's local date. */
export function exportFileName(at: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `ip-browser-info-${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}.json`;
}

export interface ExportData {
  timestamp: string;
  ip: IpInfo;
  browser: BrowserInfo;
}

/** Spec §3 export file: JSON with an ISO timestamp, ip and browser. */
export function exportData(ip: IpInfo, browser: BrowserInfo, at: Date = new Date()): ExportData {
  return { timestamp: at.toISOString(), ip, browser };
}

/** The text Share sends (and copies when the device cannot share). */
export function shareText(ip: IpInfo, browser: BrowserInfo): string {
  const place = [ip.city, ip.region, ip.country].filter(known).join(', ') || 'Unknown';
  // a name without a known version stays alone ("OS: Linux", not "OS: Linux unknown")
  const named = (name: string, version: string) => [name, version].filter(known).join(' ') || 'Unknown';
  return [
    `IP: ${ip.ip}`,
    `Location: ${place}`,
    `ISP: ${known(ip.org) ? ip.org : 'Unknown'}`,
    `Browser: ${named(browser.browser.name, browser.browser.version)}`,
    `OS: ${named(browser.os.name, browser.os.version)}`,
  ].join('\n');
}
