import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Page } from '../../../components/ui/Page';
import { ApiError } from '../../../lib/api';
import { fieldErrors } from '../errors';
import { ACCOUNT_PATH } from '../paths';
import { useForgotPassword } from './api';
import { RESET_NS } from './i18n';
import '../auth.css';

/**
 * "Forgot password": the visitor gives the account's address and is told the same whether or not an
 * account has it; the mail (in the interface language) links to /reset-password.
 */
export default function ForgotPasswordPage() {
  const { t, i18n } = useTranslation(RESET_NS);
  const { t: tc } = useTranslation();
  const id = useId();
  const [email, setEmail] = useState('');
  const [empty, setEmpty] = useState(false);
  const forgot = useForgotPassword();

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setEmpty(!email.trim());
    if (!email.trim()) return;
    forgot.mutate({ email: email.trim(), lang: i18n.resolvedLanguage ?? i18n.language });
  };

  let error: string | null = empty ? t('required') : null;
  const err = forgot.error;
  if (!error && err) {
    if (err instanceof ApiError && err.status === 429) error = t('throttled');
    else if (err instanceof ApiError && err.status === 404) error = t('unavailable');
    else if (err instanceof ApiError && err.status === 400) error = fieldErrors(err, tc).email ?? t('failed');
    else error = t('failed');
  }

  return (
    <Page title={t('forgotTitle')} className="password-reset">
      {forgot.isSuccess ? (
        <div className="auth-form">
          <p className="auth-form__success" role="status">
            {t('sent')}
          </p>
          <Link to={ACCOUNT_PATH}>{t('toSignIn')}</Link>
        </div>
      ) : (
        <form className="auth-form" onSubmit={onSubmit} aria-label={t('forgotTitle')} noValidate>
          <p>{t('forgotLead')}</p>
          <div className="auth-form__field">
            <label htmlFor={`${id}-email`}>{t('email')}</label>
            <input
              className="field-input"
              id={`${id}-email`}
              name="email"
              type="email"
              autoComplete="username"
              required
              value={email}
              onChange={(e) => setEmail(e.target.value)}
            />
          </div>
          {error ? (
            <p className="auth-form__error" role="alert">
              {error}
            </p>
          ) : null}
          <button type="submit" className="btn btn--primary" disabled={forgot.isPending}>
            {forgot.isPending ? t('sending') : t('send')}
          </button>
          <Link to={ACCOUNT_PATH}>{t('toSignIn')}</Link>
        </form>
      )}
    </Page>
  );
}
