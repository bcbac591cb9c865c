// Dates and times as the reader's language writes them, through one Intl.DateTimeFormat per
// language and style. Building a formatter is the costly part (on a phone, tens of milliseconds
// for a language's first one and still a fraction of one for each after it); a list that built
// one per row spent most of its rendering there (the comments under an article: 20 rows).

const cache = new Map<string, Intl.DateTimeFormat>();

/** The shared formatter for lang and options (a language tag Intl refuses falls back to English). */
export function dateTimeFormat(lang: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${lang}|${JSON.stringify(options)}`;
  let f = cache.get(key);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat(lang, options);
    } catch {
      f = new Intl.DateTimeFormat('en', options);
    }
    cache.set(key, f);
  }
  return f;
}

/** A moment with its date and time of day ("28 Nov 2026, 02:19"); '' for an invalid date. */
export function formatDateTime(iso: string, lang: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : dateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' }).format(d);
}
