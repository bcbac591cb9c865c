import { formatLongDate } from '../../lib/dateTimeFormat';
import { formatNumber } from '../../lib/numberFormat';

/**
 * A file's size as a detail page shows it (decimal units, 1e3/1e6/1e9): bytes below a kilobyte,
 * else two decimals, "1.50 MB" ("1,50 МБ" in Ukrainian); units come translated.
 */
export function formatSize(bytes: number, units: readonly string[], lang: string): string {
  const steps = [1, 1e3, 1e6, 1e9];
  let i = 0;
  while (i < steps.length - 1 && Number((bytes / steps[i + 1]).toFixed(2)) >= 1) i++;
  if (i === 0) return `${formatNumber(Math.max(0, Math.round(bytes)), lang)} ${units[0]}`;
  return `${formatNumber(bytes / steps[i], lang, 2)} ${units[i]}`;
}

/** A date in the reader's language ("27 November 2026"). */
export function formatDate(iso: string, lang: string): string {
  return formatLongDate(iso, lang);
}
