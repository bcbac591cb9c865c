// Interface-language detection, kept free of React and i18next so every branch is testable.
// Order: saved choice (if supported) → visitor's country → browser language → English.

export const SUPPORTED_LANGUAGES = ['uk', 'ru', 'en'] as const;
export type Language = (typeof SUPPORTED_LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';
export const LANGUAGE_STORAGE_KEY = 'preferredLanguage';

export interface LanguageRecord {
  code: Language;
  name: string;
}

/** Language records for the selector (names are written in their own language). */
export const LANGUAGES: readonly LanguageRecord[] = [
  { code: 'uk', name: 'Українська' },
  { code: 'ru', name: 'Русский' },
  { code: 'en', name: 'English' },
];

const COUNTRY_GROUPS: Record<string, readonly string[]> = {
  // Ukraine
  uk: ['UA'],
  // Russia, Belarus and ex-Soviet states where Russian is widely used
  ru: ['RU', 'BY', 'KZ', 'KG', 'TJ', 'AM', 'AZ', 'MD', 'UZ', 'TM'],
  // France and French-speaking countries
  fr: [
    'FR', 'BE', 'LU', 'MC', 'SN', 'CI', 'CM', 'ML', 'BF', 'NE', 'TG', 'BJ', 'GA', 'CG', 'CD',
    'GN', 'MG', 'HT', 'TD', 'CF', 'DJ', 'KM', 'BI', 'RE', 'GP', 'MQ', 'GF', 'PF', 'NC', 'YT',
  ],
  // Spain and Latin America
  es: [
    'ES', 'MX', 'AR', 'CO', 'CL', 'PE', 'VE', 'EC', 'GT', 'CU', 'BO', 'DO', 'HN', 'PY', 'SV',
    'NI', 'CR', 'PA', 'UY', 'PR', 'GQ',
  ],
  // Portugal, Brazil and Lusophone countries
  pt: ['PT', 'BR', 'AO', 'MZ', 'CV', 'GW', 'ST', 'TL'],
};

/** ISO 3166-1 alpha-2 country code → language code (possibly one without a translation). */
export const COUNTRY_LANGUAGE: Readonly<Record<string, string>> = Object.freeze(
  Object.fromEntries(
    Object.entries(COUNTRY_GROUPS).flatMap(([lang, codes]) => codes.map((c) => [c, lang])),
  ),
);

export function isSupportedLanguage(lang: unknown): lang is Language {
  return typeof lang === 'string' && (SUPPORTED_LANGUAGES as readonly string[]).includes(lang);
}

/** 'uk-UA' → 'uk', 'EN_us' → 'en'; '' or non-strings → null. */
export function normalizeLanguage(lang: unknown): string | null {
  if (typeof lang !== 'string') return null;
  const base = lang.trim().toLowerCase().split(/[-_]/)[0];
  return base || null;
}

/**
 * Language for a country: the table above, and English for every other known country.
 * Returns null when the country is unknown (no code, "Unknown", or not a two-letter code).
 */
export function countryToLanguage(countryCode: unknown): string | null {
  if (typeof countryCode !== 'string') return null;
  const code = countryCode.trim().toUpperCase();
  if (!/^[A-Z]{2}$/.test(code)) return null;
  return COUNTRY_LANGUAGE[code] ?? DEFAULT_LANGUAGE;
}

export interface CountryInfo {
  country?: string | null;
  countryCode?: string | null;
}

export interface DetectionInput {
  /** The value saved under 'preferredLanguage', if any. */
  saved: string | null | undefined;
  /** Looks the visitor's country up (GET /api/ip); may reject. Called only when needed. */
  fetchCountry: () => Promise<CountryInfo | null | undefined>;
  /** navigator.language */
  browserLanguage: string | null | undefined;
  warn?: (...args: unknown[]) => void;
}

export type DetectionSource = 'saved' | 'country' | 'browser' | 'default';

export interface DetectionResult {
  language: Language;
  source: DetectionSource;
  /** What the source suggested before the fallback to English (e.g. 'fr'). */
  detected: string;
}

function settle(detected: string, source: DetectionSource, warn: (...a: unknown[]) => void): DetectionResult {
  if (isSupportedLanguage(detected)) return { language: detected, source, detected };
  warn(`[i18n] Language "${detected}" (from ${source}) is not supported; falling back to English.`);
  return { language: DEFAULT_LANGUAGE, source, detected };
}

function isUnknownCountry(info: CountryInfo): boolean {
  const name = (info.country ?? '').trim().toLowerCase();
  return name === '' || name === 'unknown';
}

export async function detectLanguage(input: DetectionInput): Promise<DetectionResult> {
  const warn = input.warn ?? ((...a: unknown[]) => console.warn(...a));

  // 1. A saved choice wins, but only if it is a supported language.
  const saved = normalizeLanguage(input.saved);
  if (saved) {
    if (isSupportedLanguage(saved)) return { language: saved, source: 'saved', detected: saved };
    warn(`[i18n] Saved language "${input.saved}" is not supported; ignoring it.`);
  }

  // 2. The visitor's country (from our own /api/ip).
  try {
    const info = await input.fetchCountry();
    if (info && !isUnknownCountry(info)) {
      const lang = countryToLanguage(info.countryCode);
      if (lang) return settle(lang, 'country', warn);
    }
  } catch (err) {
    warn('[i18n] Country lookup failed; using the browser language.', err);
  }

  // 3. The browser language.
  const browser = normalizeLanguage(input.browserLanguage);
  if (browser) return settle(browser, 'browser', warn);

  // 4. English.
  return { language: DEFAULT_LANGUAGE, source: 'default', detected: DEFAULT_LANGUAGE };
}
