import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api';
import { useLoginMfa, usePasskeySecondFactor } from '../api';
import { errorText } from '../errors';
import { ACCOUNT_NS } from './i18n';

/** The five minutes of the password step's token ran out: the code step cannot continue. */
const expired = (err: unknown) => err instanceof ApiError && err.status === 401 && /token/i.test(err.message);

/**
 * The second step of a two-factor sign-in: a code from the authenticator app (or a recovery
 * code) with the token the password step gave. A wrong code keeps the step open; a token that
 * expired sends the visitor back to the password.
 */
export function MfaStep({ mfaToken, passkey = false, onBack }: { mfaToken: string; passkey?: boolean; onBack: () => void }) {
  const { t } = useTranslation(ACCOUNT_NS);
  const { t: tc } = useTranslation();
  const id = useId();
  const [code, setCode] = useState('');
  const verify = useLoginMfa();
  const withPasskey = usePasskeySecondFactor();
  const busy = verify.isPending || withPasskey.isPending;

  let error: string | null = null;
  if (verify.error) {
    error = verify.error instanceof ApiError && verify.error.status === 429 ? errorText(verify.error, tc, t('mfa.failed')) : t('mfa.failed');
  } else if (withPasskey.error) {
    error = t('mfa.passkeyFailed');
  }

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (!code.trim()) return;
    withPasskey.reset();
    verify.mutate(
      { mfaToken, code: code.trim() },
      {
        onError: (err) => {
          if (expired(err)) onBack(); // start again from the password
          else setCode('');
        },
      },
    );
  };

  const onPasskey = () => {
    verify.reset();
    withPasskey.mutate(mfaToken);
  };

  return (
    <form className="auth-form" onSubmit={onSubmit} aria-label={t('mfa.title')} noValidate>
      <h2 className="auth-form__title">{t('mfa.title')}</h2>
      <p id={`${id}-hint`}>{t('mfa.prompt')}</p>
      <div className="auth-form__field">
        <label htmlFor={`${id}-code`}>{t('mfa.code')}</label>
        <input className="field-input"
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
        <button type="button" className="btn" onClick={onPasskey} disabled={busy}>
          {t('mfa.usePasskey')}
        </button>
      ) : null}
      <button type="button" className="btn btn--ghost auth-form__toggle" onClick={onBack}>
        {t('mfa.back')}
      </button>
    </form>
  );
}
