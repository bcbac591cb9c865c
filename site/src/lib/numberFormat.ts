// Numbers as the reader's language writes them: "50,00" in Ukrainian and Russian, "50.00" in
// English, with the language's own grouping from five digits on ("48 000", "48,000"; a four-digit
// figure stays whole, "1177,38", as most style guides write it). Every figure the site shows goes
// through here rather than toFixed, whose dot is English only.

const cache = new Map<string, Intl.NumberFormat>();

function formatter(lang: string, digits: number | undefined): Intl.NumberFormat {
  const key = `${lang}|${digits ?? ''}`;
  let f = cache.get(key);
  if (!f) {
    // 'min2' (no grouping below five digits) is newer than TypeScript's lib
    const opts = { useGrouping: 'min2' } as unknown as Intl.NumberFormatOptions;
    if (digits !== undefined) Object.assign(opts, { minimumFractionDigits: digits, maximumFractionDigits: digits });
    try {
      f = new Intl.NumberFormat(lang, opts);
    } catch {
      f = new Intl.NumberFormat('en', opts); // a language tag the browser does not know
    }
    cache.set(key, f);
  }
  return f;
}

/**
 * value in lang's number format; `digits` fixes the decimals (2 → "3,50"), else the language's
 * default (at most three). A value that is not finite is written as 0.
 */
export function formatNumber(value: number, lang: string, digits?: number): string {
  return formatter(lang, digits).format(Number.isFinite(value) ? value : 0);
}
