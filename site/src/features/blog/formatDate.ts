// One formatter per language: building an Intl.DateTimeFormat costs about a millisecond on a
// phone (far more than formatting with it), and the blog list formats a date per card.
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

/** A date as the reader's language writes it, e.g. "10 січня 2025 р."; the raw text if invalid. */
export function formatDate(iso: string, language: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return formatterFor(language)?.format(d) ?? d.toISOString().slice(0, 10);
}
