// A refusal over the storage quota as the API answers it: an error's data.quota {used, limit,
// held}. Read by every upload path (the file cloud's uploader and the resumable uploads), which
// turn it into a message in the page's language instead of the server's English sentence.
import type { Schema } from './apiTypes';

export type Quota = Schema<'Quota'>;

/**
 * A refusal's figures: the quota, and — when the user's unfinished resumable uploads took part in
 * the refusal — what they hold (data.quota.held: their announced lengths, one file each).
 */
export type QuotaRefusal = Quota & { held?: Schema<'QuotaAmount'> };

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

/** The quota of an error answer's JSON body ({status, message, data}), or null. */
export function quotaFromErrorBody(body: string | null | undefined): QuotaRefusal | null {
  if (!body) return null;
  try {
    return quotaFromErrorData((JSON.parse(body) as { data?: unknown } | null)?.data);
  } catch {
    return null;
  }
}
