// The audit log's words in the reader's language. The server records an event's details as
// plain English key/value pairs ({"method": "password + one-time code", "count": "3"}); the
// page names each key, each value the server chooses from a fixed set, numbers and times in the
// reader's language, and shows anything else (a passkey's name, a link's first characters) as
// recorded.
import type { TFunction } from 'i18next';
import { formatNumber } from '../../../lib/numberFormat';

/** Which set of translated values a detail's value comes from. */
const VALUE_SETS: Record<string, string> = {
  method: 'method',
  reason: 'reason',
  via: 'via',
  sessions: 'sessions',
  files: 'files',
  from: 'role',
  to: 'role',
  role: 'role',
  password: 'bool',
};
const NUMBERS = new Set(['count', 'downloads', 'filesDeleted', 'maxDownloads', 'bytes']);
const TIMES = new Set(['expiresAt']);

/** A recorded value as a key ("password + one-time code" → "password_one_time_code"). */
const valueKey = (v: string) =>
  v
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '');

function detailValue(key: string, value: string, t: TFunction, lang: string): string {
  const set = VALUE_SETS[key];
  if (set) return t(`audit.detailValues.${set}.${valueKey(value)}`, { defaultValue: value });
  if (NUMBERS.has(key) && /^-?\d+$/.test(value)) return formatNumber(Number(value), lang);
  if (TIMES.has(key)) {
    const d = new Date(value);
    if (!Number.isNaN(d.getTime())) return d.toLocaleString(lang);
  }
  return value;
}

/** An event's details as one line: "спосіб: пароль + одноразовий код, кількість: 3". */
export function auditDetails(details: Record<string, string> | undefined | null, t: TFunction, lang: string): string {
  return Object.entries(details ?? {})
    .map(([k, v]) => `${t(`audit.detailKeys.${k}`, { defaultValue: k })}: ${detailValue(k, v, t, lang)}`)
    .join(', ');
}

/** An actor or target the server names in English ("file 12", "link AbCdEf…"), in the reader's language. */
export function auditParty(who: string | undefined | null, t: TFunction): string {
  const s = who ?? '';
  const file = /^file (\d+)$/.exec(s);
  if (file) return t('audit.file', { id: file[1] });
  const link = /^link (\S+)$/.exec(s);
  if (link) return t('audit.link', { ref: link[1] });
  return s;
}
