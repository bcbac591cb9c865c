import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api';
import { useAuth } from '../../../lib/auth';
import { loginMfa } from '../api';
import { errorText } from '../errors';
import { ACCOUNT_NS } from './i18n';
import { passkeySecondFactor } from './webauthn';

/**
 * The second step of a two-factor sign-in: a code from the authenticator app (or a recovery
 * code) with the token the password step gave. A wrong code keeps the step open; a token that
 * expired sends the visitor back to the password.
 */
export function MfaStep({ mfaToken, passkey = false, onBack }: { mfaToken: string; passkey?: boolean; onBack: () => void }) {
  const { t } = useTranslation(ACCOUNT_NS);
  const { t: tc } = useTranslation();
  const { setSession } = useAuth();
  const id = useId();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (!code.trim()) return;
    setBusy(true);
    setError(null);
    try {
      const res = await loginMfa(mfaToken, code.trim());
      setSession(res.user, res.tokens.accessToken);
    } catch (err) {
      if (err instanceof ApiError && err.status === 401 && /token/i.test(err.message)) {
        onBack(); // the five minutes ran out: start again from the password
        return;
      }
      setError(err instanceof ApiError && err.status === 429 ? errorText(err, tc, t('mfa.failed')) : t('mfa.failed'));
      setCode('');
    } finally {
      setBusy(false);
    }
  };

  const usePasskey = async () => {
    setBusy(true);
    setError(null);
    try {
      const res = await passkeySecondFactor(mfaToken);
      setSession(res.user, res.tokens.accessToken);
    } catch {
      setError(t('mfa.passkeyFailed'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="auth-form" onSubmit={onSubmit} aria-label={t('mfa.title')} noValidate>
      <h2 className="auth-form__title">{t('mfa.title')}</h2>
      <p id={`${id}-hint`}>{t('mfa.prompt')}</p>
      <div className="auth-form__field">
        <label htmlFor={`${id}-code`}>{t('mfa.code')}</label>
        <input
          id={`${id}-code`}
          name="code"
          inputMode="text"
          autoComplete="one-time-code"
          autoFocus
          aria-describedby={`${id}-hint`}
          value={code}
          onChange={(e) => setCode(e.target.value)}
          maxLength={32}
        />
      </div>
      {error ? (
        <p className="auth-form__error" role="alert">
          {error}
        </p>
      ) : null}
      <button type="submit" className="btn btn--primary" disabled={busy || !code.trim()}>
        {busy ? tc('auth.form.submitting') : t('mfa.submit')}
      </button>
      {passkey ? (
        <button type="button" className="btn" onClick={() => void usePasskey()} disabled={busy}>
          {t('mfa.usePasskey')}
        </button>
      ) : null}
      <button type="button" className="btn btn--ghost auth-form__toggle" onClick={onBack}>
        {t('mfa.back')}
      </button>
    </form>
  );
}
