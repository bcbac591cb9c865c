import { createInstance, type i18n as I18n, type InitOptions, type Resource } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { getIpInfo } from './ipInfo';
import { loadOnce } from './loadOnce';
import {
  DEFAULT_LANGUAGE,
  LANGUAGE_STORAGE_KEY,
  SUPPORTED_LANGUAGES,
  detectLanguage,
  isSupportedLanguage,
  normalizeLanguage,
  type Language,
} from './languageDetection';

type Translations = Record<string, unknown>;

/**
 * The shell's translations (src/locales/*.json), one chunk per language: a visitor downloads the
 * interface language's only (2.1–2.9 KB gzipped, where all three cost 4.7 KB in the entry chunk),
 * and another one when switching to it. The locales carry the same keys (i18n.test.ts), so nothing
 * needs the English one as a fallback.
 */
const SHELL_LOCALES: Record<Language, () => Promise<Translations>> = {
  en: loadOnce(() => import('../locales/en.json').then((m) => m.default)),
  uk: loadOnce(() => import('../locales/uk.json').then((m) => m.default)),
  ru: loadOnce(() => import('../locales/ru.json').then((m) => m.default)),
};

/** The shell's translations for lang: one download, shared (a failed one may be tried again). */
function loadShellLocale(lang: Language): Promise<Translations> {
  return SHELL_LOCALES[lang]();
}

/**
 * i18next options. Missing keys fall back to English (fallbackLng) where its bundle is loaded,
 * then to the default passed to t(key, default), then to the key itself (i18next's own last resort).
 * `res` holds the shell's translations already loaded (the tests pass all of them).
 */
export function i18nOptions(lng: Language, res: Resource): InitOptions {
  return {
    resources: res,
    lng,
    fallbackLng: DEFAULT_LANGUAGE,
    // The site speaks SUPPORTED_LANGUAGES; the portfolio pages' own selectors also offer
    // PAGE_ONLY_LANGUAGES (through getFixedT), so i18next must accept those bundles too.
    supportedLngs: [...SUPPORTED_LANGUAGES, ...PAGE_ONLY_LANGUAGES],
    nonExplicitSupportedLngs: false,
    interpolation: { escapeValue: false }, // React escapes
    returnNull: false,
    returnEmptyString: false,
    react: { useSuspense: false },
  };
}

/** The application's i18next instance (given to react-i18next by the app's providers). */
export const i18n: I18n = createInstance();
i18n.use(initReactI18next);

function readSaved(): string | null {
  try {
    return localStorage.getItem(LANGUAGE_STORAGE_KEY);
  } catch {
    return null;
  }
}

function save(lang: Language): void {
  try {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, lang);
  } catch {
    /* storage unavailable: the choice lasts for this page only */
  }
}

function applyToDocument(lang: string): void {
  if (typeof document !== 'undefined') document.documentElement.lang = lang;
}

let initPromise: Promise<Language> | null = null;

/** Detects the language and initialises i18n once; never rejects (failure → English). */
export function initI18n(): Promise<Language> {
  initPromise ??= (async () => {
    const saved = readSaved();
    const browserLanguage = typeof navigator !== 'undefined' ? navigator.language : null;
    // The likely language's translations download while the country is looked up (a new
    // visitor's country rarely disagrees with the browser), not after it.
    const likely = [saved, browserLanguage].map(normalizeLanguage).find(isSupportedLanguage);
    if (likely) loadShellLocale(likely).catch(() => undefined);
    let lang: Language = DEFAULT_LANGUAGE;
    try {
      const result = await detectLanguage({ saved, fetchCountry: () => getIpInfo(), browserLanguage });
      lang = result.language;
    } catch (err) {
      console.warn('[i18n] Language detection failed; using English.', err);
    }
    try {
      const res: Resource = {};
      try {
        res[lang] = { translation: await loadShellLocale(lang) };
      } catch (err) {
        // Without its chunk the language still starts; its texts come with the next load.
        console.warn(`[i18n] Could not load the "${lang}" translations.`, err);
      }
      await i18n.init(i18nOptions(lang, res));
    } catch (err) {
      console.warn('[i18n] Initialisation failed; using English.', err);
      lang = DEFAULT_LANGUAGE;
      await i18n.changeLanguage(lang).catch(() => undefined);
    }
    applyToDocument(lang);
    i18n.on('languageChanged', applyToDocument);
    return lang;
  })();
  return initPromise;
}

/** Counts setLanguage calls: a choice whose texts arrive after a later choice must not undo it. */
let languageChoices = 0;

/**
 * Switches the interface language everywhere at once and saves the choice.
 * An unsupported language logs a warning and becomes English. Of quick successive choices the
 * last one wins, whichever language's texts arrive last.
 */
export async function setLanguage(lang: string): Promise<Language> {
  const choice = ++languageChoices;
  const base = normalizeLanguage(lang);
  let target: Language;
  if (isSupportedLanguage(base)) {
    target = base;
  } else {
    console.warn(`[i18n] Language "${lang}" is not supported; falling back to English.`);
    target = DEFAULT_LANGUAGE;
  }
  // The new language's texts arrive before it is switched to: the page never shows bare keys.
  // Without them (the chunk failed to load) the interface stays in its language.
  if (!i18n.hasResourceBundle(target, 'translation')) {
    try {
      i18n.addResourceBundle(target, 'translation', await loadShellLocale(target), true, true);
    } catch (err) {
      console.warn(`[i18n] Could not load the "${target}" translations; keeping the current language.`, err);
      return currentLanguage();
    }
    if (choice !== languageChoices) return currentLanguage(); // a later choice was made meanwhile
  }
  save(target);
  await i18n.changeLanguage(target);
  return target;
}

/** The current interface language, always one of the supported ones. */
export function currentLanguage(): Language {
  const lang = normalizeLanguage(i18n.resolvedLanguage ?? i18n.language);
  return isSupportedLanguage(lang) ? lang : DEFAULT_LANGUAGE;
}

/**
 * Languages only some pages offer in a selector of their own (the development-tools page: es, fr,
 * pt). The site's language never becomes one of them.
 */
export const PAGE_ONLY_LANGUAGES = ['es', 'fr', 'pt'] as const;
export type PageLanguage = Language | (typeof PAGE_ONLY_LANGUAGES)[number];

type Bundles = Partial<Record<PageLanguage, Record<string, unknown>>>;
const pendingBundles: Array<[string, Bundles]> = [];

function addBundles(ns: string, bundles: Bundles): void {
  for (const [lang, bundle] of Object.entries(bundles)) {
    if (bundle) i18n.addResourceBundle(lang, ns, bundle, true, true);
  }
}

/**
 * Lets a feature ship its own translations (e.g. src/features/blog/locales/*.json) inside its
 * lazy chunk instead of growing the shell's locale files:
 *   registerTranslations('blog', { uk, ru, en });  then  useTranslation('blog')
 */
export function registerTranslations(ns: string, bundles: Bundles): void {
  if (i18n.isInitialized) addBundles(ns, bundles);
  else pendingBundles.push([ns, bundles]);
}

i18n.on('initialized', () => {
  for (const [ns, bundles] of pendingBundles.splice(0)) addBundles(ns, bundles);
});
