// Article languages as the reader sees them: the interface names a foreign article's language in
// its own words (a badge), and a link to a translation names its language as that language does.
import type { TFunction } from 'i18next';
import { LANGUAGES } from '../../lib/languageDetection';

/** The article's language, "en" for answers from before articles had one (the site's default). */
export function articleLang(a: { lang?: string }): string {
  return (a.lang || 'en').toLowerCase();
}

/** Whether an article is in the interface language ("uk" matches "uk-UA"). */
export function inLanguage(a: { lang?: string }, ui: string): boolean {
  return articleLang(a).split('-')[0] === ui.toLowerCase().split('-')[0];
}

/** A language's name in the interface language: the locale's own word, else the code. */
export function languageName(t: TFunction, code: string): string {
  return t(`languages.${code}`, { defaultValue: code.toUpperCase() });
}

/** A language's name in that language ("Українська"), for links to a translation. */
export function autonym(code: string): string {
  const known = LANGUAGES.find((l) => l.code === code);
  if (known) return known.name;
  try {
    const name = new Intl.DisplayNames([code], { type: 'language' }).of(code);
    if (name && name !== code) return name.charAt(0).toLocaleUpperCase(code) + name.slice(1);
  } catch {
    /* not a code Intl knows */
  }
  return code.toUpperCase();
}
