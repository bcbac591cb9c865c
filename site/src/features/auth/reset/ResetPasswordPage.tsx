import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { Page } from '../../../components/ui/Page';
import { ApiError } from '../../../lib/api';
import { fieldErrors } from '../errors';
import { ACCOUNT_PATH, FORGOT_PASSWORD_PATH } from '../paths';
import { useResetPassword } from './api';
import { RESET_NS } from './i18n';
import '../auth.css';

/**
 * The page the reset mail links to (?token=…): a new password, twice. The token works once, for an
 * hour; a spent or expired one says so and offers a new link. Success ends every session.
 */
export default function ResetPasswordPage() {
  const { t } = useTranslation(RESET_NS);
  const { t: tc } = useTranslation();
  const id = useId();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [refused, setRefused] = useState<string | null>(null);
  const reset = useResetPassword();

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setRefused(null);
    reset.reset();
    if (!password || !confirm) return setRefused(t('required'));
    if (password !== confirm) return setRefused(t('mismatch'));
    reset.mutate({ token, newPassword: password });
  };

  const fields = fieldErrors(reset.error, tc);
  const badLink = reset.error instanceof ApiError && reset.error.status === 400 && !!fields.token;
  let error = refused;
  if (!error && reset.error) {
    if (badLink) error = t('badLink');
    else if (reset.error instanceof ApiError && reset.error.status === 429) error = t('throttled');
    else error = fields.newPassword ?? t('failed');
  }

  let body;
  if (!token) {
    body = (
      <div className="auth-form">
        <p>{t('noToken')}</p>
        <Link to={FORGOT_PASSWORD_PATH}>{t('askAgain')}</Link>
      </div>
    );
  } else if (reset.isSuccess) {
    body = (
      <div className="auth-form">
        <p className="auth-form__success" role="status">
          {t('done')}
        </p>
        <Link to={ACCOUNT_PATH}>{t('toSignIn')}</Link>
      </div>
    );
  } else {
    const field = (key: string, label: string, value: string, set: (v: string) => void) => (
      <div className="auth-form__field">
        <label htmlFor={`${id}-${key}`}>{label}</label>
        <input
          className="field-input"
          id={`${id}-${key}`}
          name={key}
          type="password"
          autoComplete="new-password"
          required
          value={value}
          onChange={(e) => set(e.target.value)}
        />
      </div>
    );
    body = (
      <form className="auth-form" onSubmit={onSubmit} aria-label={t('resetTitle')} noValidate>
        {field('newPassword', t('newPassword'), password, setPassword)}
        {field('confirmPassword', t('confirmPassword'), confirm, setConfirm)}
        {error ? (
          <p className="auth-form__error" role="alert">
            {error}
          </p>
        ) : null}
        <button type="submit" className="btn btn--primary" disabled={reset.isPending}>
          {reset.isPending ? t('saving') : t('save')}
        </button>
        {badLink ? <Link to={FORGOT_PASSWORD_PATH}>{t('askAgain')}</Link> : null}
      </form>
    );
  }
  return (
    <Page title={t('resetTitle')} className="password-reset">
      {body}
    </Page>
  );
}
