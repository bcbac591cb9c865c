// The storage quota as the file cloud shows it: the usage line ("2.10 GB of 10.00 GB used, 123 of
// 10,000 files") and the 413 answer's data.quota {used, limit}, which the uploader turns into a
// message instead of the server's English sentence.
import type { Schema } from '../../lib/apiTypes';
import { type BinaryUnits, formatBinary } from './format';

export type Quota = Schema<'Quota'>;

/**
 * A refusal's figures: the quota, and — when the user's unfinished resumable uploads took part in
 * the refusal — what they hold (data.quota.held: their announced lengths, one file each).
 */
export type QuotaRefusal = Quota & { held?: Schema<'QuotaAmount'> };

type T = (key: string, opts?: Record<string, unknown>) => string;

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;
const isLimit = (v: unknown): v is number | null => v === null || isCount(v);

/**
 * The quota carried by an error answer's data (data.quota with code quota_exceeded), or null
 * when the answer is not about the quota (a 413 for a body over files.max_upload_bytes is not).
 */
export function quotaFromErrorData(data: unknown): QuotaRefusal | null {
  type Pair = { bytes?: unknown; files?: unknown };
  const q = (data as { quota?: unknown } | null | undefined)?.quota as { used?: Pair; limit?: Pair; held?: Pair } | undefined;
  if (!q || typeof q !== 'object' || !q.used || !q.limit) return null;
  const { used, limit, held } = q;
  if (!isCount(used.bytes) || !isCount(used.files) || !isLimit(limit.bytes) || !isLimit(limit.files)) return null;
  const out: QuotaRefusal = { used: { bytes: used.bytes, files: used.files }, limit: { bytes: limit.bytes, files: limit.files } };
  if (held && isCount(held.bytes) && isCount(held.files) && (held.bytes > 0 || held.files > 0)) {
    out.held = { bytes: held.bytes, files: held.files };
  }
  return out;
}

/** Why an upload over the quota was refused, with the figures in the page's units and language. */
export function quotaRefusalText(q: QuotaRefusal, t: T, units: BinaryUnits, language?: string): string {
  const usage = quotaUsageText(q, t, units, language);
  return q.held
    ? t('quota.exceededHeld', { usage, held: formatBinary(q.held.bytes, units, language) })
    : t('quota.exceeded', { usage });
}

/** The quota of an error answer's JSON body ({status, message, data}), or null. */
export function quotaFromErrorBody(body: string | null | undefined): QuotaRefusal | null {
  if (!body) return null;
  try {
    return quotaFromErrorData((JSON.parse(body) as { data?: unknown } | null)?.data);
  } catch {
    return null;
  }
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
