// Dates of the blog in the reader's language, e.g. "10 січня 2025 р.".
//
// The interface languages are written out here rather than through Intl.DateTimeFormat: the
// first date formatter a page builds loads the locale's date data, 10 to 100 ms of main thread
// on a phone, in the middle of rendering the list. The tables give exactly what Intl's
// `dateStyle: 'long'` gives (formatDate.test.ts compares them month by month); other languages
// still go through Intl, one formatter per language.

type LongDate = (day: number, month: number, year: number) => string;

const EN = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const UK = ['січня', 'лютого', 'березня', 'квітня', 'травня', 'червня', 'липня', 'серпня', 'вересня', 'жовтня', 'листопада', 'грудня'];
const RU = ['января', 'февраля', 'марта', 'апреля', 'мая', 'июня', 'июля', 'августа', 'сентября', 'октября', 'ноября', 'декабря'];

const WRITTEN: Record<string, LongDate> = {
  en: (d, m, y) => `${EN[m]} ${d}, ${y}`,
  uk: (d, m, y) => `${d} ${UK[m]} ${y} р.`,
  ru: (d, m, y) => `${d} ${RU[m]} ${y} г.`,
};

const formatters = new Map<string, Intl.DateTimeFormat | null>();

function formatterFor(language: string): Intl.DateTimeFormat | null {
  let f = formatters.get(language);
  if (f === undefined) {
    try {
      f = new Intl.DateTimeFormat(language, { dateStyle: 'long', timeZone: 'UTC' });
    } catch {
      f = null; // not a language tag Intl accepts
    }
    formatters.set(language, f);
  }
  return f;
}

/** A date (its UTC day) as the reader's language writes it; the raw text if invalid. */
export function formatDate(iso: string, language: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const written = WRITTEN[language];
  if (written) return written(d.getUTCDate(), d.getUTCMonth(), d.getUTCFullYear());
  return formatterFor(language)?.format(d) ?? d.toISOString().slice(0, 10);
}
