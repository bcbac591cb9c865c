// Dates and times as the reader's language writes them.
//
// The interface languages are written out here rather than through Intl.DateTimeFormat: the
// first date formatter a page builds loads the locale's date data, 75 ms of main thread measured
// in Chromium here before any CPU throttling (a phone is several times slower), in the middle of
// rendering the comments or a download list. The tables give exactly what Intl gives for the same
// options (dateTimeFormat.test.ts compares them month by month and hour by hour); other languages
// still go through Intl, one formatter per language and options.

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

const SHORT_MONTHS: Record<string, readonly string[]> = {
  en: ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'],
  uk: ['січ.', 'лют.', 'бер.', 'квіт.', 'трав.', 'черв.', 'лип.', 'серп.', 'вер.', 'жовт.', 'лист.', 'груд.'],
  ru: ['янв.', 'февр.', 'мар.', 'апр.', 'мая', 'июн.', 'июл.', 'авг.', 'сент.', 'окт.', 'нояб.', 'дек.'],
};

const LONG_MONTHS: Record<string, readonly string[]> = {
  en: ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'],
  uk: ['січня', 'лютого', 'березня', 'квітня', 'травня', 'червня', 'липня', 'серпня', 'вересня', 'жовтня', 'листопада', 'грудня'],
  ru: ['января', 'февраля', 'марта', 'апреля', 'мая', 'июня', 'июля', 'августа', 'сентября', 'октября', 'ноября', 'декабря'],
};

const YEAR_SUFFIX: Record<string, string> = { en: '', uk: ' р.', ru: ' г.' };

const two = (n: number) => String(n).padStart(2, '0');

/** A day as Intl's `dateStyle` writes it: "Nov 28, 2026" / "28 лист. 2026 р." (medium), "November 28, 2026" (long). */
function writtenDate(d: Date, lang: string, months: readonly string[]): string {
  const day = d.getDate(), month = months[d.getMonth()], year = d.getFullYear();
  return lang === 'en' ? `${month} ${day}, ${year}` : `${day} ${month} ${year}${YEAR_SUFFIX[lang]}`;
}

/** The time of day as Intl's `timeStyle: 'short'` writes it: "2:05 PM" in English, "14:05" in Ukrainian and Russian. */
function writtenTime(d: Date, lang: string): string {
  const h = d.getHours(), m = two(d.getMinutes());
  return lang === 'en' ? `${h % 12 || 12}:${m} ${h < 12 ? 'AM' : 'PM'}` : `${two(h)}:${m}`;
}

/** A moment with its date and time of day in the local time zone ("Nov 28, 2026, 2:05 PM"); '' for an invalid date. */
export function formatDateTime(iso: string, lang: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  if (lang in SHORT_MONTHS) return `${writtenDate(d, lang, SHORT_MONTHS[lang])}, ${writtenTime(d, lang)}`;
  return dateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' }).format(d);
}

/** A day in the local time zone, its month written out ("November 28, 2026"); '' for an invalid date. */
export function formatLongDate(iso: string, lang: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  if (lang in LONG_MONTHS) return writtenDate(d, lang, LONG_MONTHS[lang]);
  return dateTimeFormat(lang, { year: 'numeric', month: 'long', day: 'numeric' }).format(d);
}
