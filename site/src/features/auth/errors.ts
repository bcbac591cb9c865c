// Turns a failed auth call into the text a form shows. Field errors from the server are shown
// in the interface language by their stable code; other server messages are shown as sent.
import type { TFunction } from 'i18next';
import { ApiError } from '../../lib/api';

const KNOWN_CODES = ['required', 'invalid', 'too_short', 'too_long', 'mismatch', 'wrong_password'];

/** Localised texts of the server's field errors, keyed by field name. */
export function fieldErrors(err: unknown, t: TFunction): Record<string, string> {
  const out: Record<string, string> = {};
  if (!(err instanceof ApiError) || !err.data) return out;
  for (const [field, value] of Object.entries(err.data)) {
    if (!value || typeof value !== 'object') continue;
    const { code, message } = value as { code?: string; message?: string };
    if (code && KNOWN_CODES.includes(code)) out[field] = t(`auth.codes.${code}`, { defaultValue: message ?? code });
    else if (message) out[field] = message;
  }
  return out;
}

/** The wait a 429's message names ("…try again in 42 s"), in seconds; null when it names none. */
export function retryAfterSeconds(err: ApiError): number | null {
  const m = /(\d+)\s*s\b/.exec(err.message);
  return m ? Number(m[1]) : null;
}

/**
 * The one-line error for a form: throttling, then the first field error, then a taken e-mail,
 * then the server's own message, else the fallback ("… or the server message").
 * `throttled` says which limit a 429 means: failed sign-ins (a minute, told in seconds) or
 * registrations from the visitor's network (minutes).
 */
export function errorText(
  err: unknown,
  t: TFunction,
  fallback: string,
  throttled: 'login' | 'register' = 'login',
): string {
  if (!(err instanceof ApiError) || err.status === 0) return fallback;
  if (err.status === 429) {
    if (throttled === 'register') {
      const seconds = retryAfterSeconds(err) ?? 600;
      return t('auth.errors.registerThrottled', { minutes: Math.max(1, Math.ceil(seconds / 60)) });
    }
    return t('auth.errors.throttled', { seconds: retryAfterSeconds(err) ?? 60 });
  }
  const fields = Object.values(fieldErrors(err, t));
  if (fields.length > 0) return fields[0];
  if (err.status === 409) return t('auth.errors.emailTaken');
  if (err.status >= 500) return fallback;
  return err.message && !err.message.startsWith('HTTP error!') ? err.message : fallback;
}
