import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api';
import { useResendVerification } from './api';
import { VERIFY_NS } from './i18n';

/**
 * "Send the link again": for an address given (the account's, or the one just typed at sign-in)
 * a button; without one, a field for it too. The answer is the same whatever the address.
 */
export function ResendVerification({ email: given }: { email?: string }) {
  const { t, i18n } = useTranslation(VERIFY_NS);
  const id = useId();
  const [typed, setTyped] = useState('');
  const resend = useResendVerification();
  const email = (given ?? typed).trim();
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (!email) return;
    resend.mutate({ email, lang: i18n.resolvedLanguage ?? i18n.language });
  };
  let error: string | null = null;
  if (resend.isError) error = resend.error instanceof ApiError && resend.error.status === 429 ? t('resend.throttled') : t('resend.failed');
  return (
    <form className="verify-resend" onSubmit={onSubmit} aria-label={t('resend.title')} noValidate>
      {given === undefined ? (
        <div className="auth-form__field">
          <label htmlFor={`${id}-email`}>{t('resend.email')}</label>
          <input className="field-input" id={`${id}-email`} name="email" type="email" autoComplete="email" required
            value={typed} onChange={(e) => setTyped(e.target.value)} />
        </div>
      ) : null}
      {resend.isSuccess ? <p className="auth-form__success" role="status">{t('resend.sent')}</p> : null}
      {error ? <p className="auth-form__error" role="alert">{error}</p> : null}
      <button type="submit" className="btn" disabled={resend.isPending || !email}>{t('resend.submit')}</button>
    </form>
  );
}
