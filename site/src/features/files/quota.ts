// The storage quota as the file cloud shows it: the usage line ("2.10 GB of 10.00 GB used, 123 of
// 10,000 files") and the text of a refusal over it (lib/quotaRefusal reads the refusal).
import type { Quota, QuotaRefusal } from '../../lib/quotaRefusal';
import { type BinaryUnits, formatBinary } from './format';

type T = (key: string, opts?: Record<string, unknown>) => string;

/** Why an upload over the quota was refused, with the figures in the page's units and language. */
export function quotaRefusalText(q: QuotaRefusal, t: T, units: BinaryUnits, language?: string): string {
  const usage = quotaUsageText(q, t, units, language);
  return q.held
    ? t('quota.exceededHeld', { usage, held: formatBinary(q.held.bytes, units, language) })
    : t('quota.exceeded', { usage });
}

/** "2.10 GB of 10.00 GB used, 123 of 10,000 files" in the page's language; null limits read "unlimited". */
export function quotaUsageText(q: Quota, t: T, units: BinaryUnits, language?: string): string {
  const n = (v: number) => new Intl.NumberFormat(language).format(v);
  const bytes =
    q.limit.bytes === null
      ? t('quota.bytesUnlimited', { used: formatBinary(q.used.bytes, units, language) })
      : t('quota.bytes', { used: formatBinary(q.used.bytes, units, language), limit: formatBinary(q.limit.bytes, units, language) });
  const files =
    q.limit.files === null
      ? t('quota.filesUnlimited', { count: q.used.files, used: n(q.used.files) })
      : t('quota.files', { count: q.limit.files, used: n(q.used.files), limit: n(q.limit.files) });
  return `${bytes}, ${files}`;
}

/** How full the quota is (0–1) by the tighter of its two limits, or null when both are unlimited. */
export function quotaFill(q: Quota): number | null {
  const parts: number[] = [];
  if (q.limit.bytes !== null) parts.push(q.limit.bytes > 0 ? q.used.bytes / q.limit.bytes : 1);
  if (q.limit.files !== null) parts.push(q.limit.files > 0 ? q.used.files / q.limit.files : 1);
  return parts.length ? Math.min(1, Math.max(...parts)) : null;
}
