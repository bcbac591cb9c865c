import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError } from '../../../lib/api';
import { isMfaChallenge, isVerificationPending, useLogin, usePasskeySignIn, useRegister, useRegistrationPolicy } from '../api';
import { errorText, fieldErrors } from '../errors';
import { MfaStep } from '../security/MfaStep';
import { ACCOUNT_NS } from '../security/i18n';
import { onIPAddress, passkeysSupported } from '../security/webauthn';
import { FORGOT_PASSWORD_PATH } from '../paths';
import { useForgotAvailable } from '../reset/api';
import { RESET_NS } from '../reset/i18n';
import { VERIFY_NS } from '../verify/i18n';
import { ResendVerification } from '../verify/ResendVerification';

/** Whether a sign-in was refused because the account's e-mail is not confirmed yet (auth.verify_email required). */
function unverified(err: unknown): boolean {
  if (!(err instanceof ApiError) || err.status !== 403 || !err.data) return false;
  const email = (err.data as Record<string, { code?: string } | undefined>).email;
  return email?.code === 'unverified';
}

export type AuthMode = 'login' | 'register';

interface Values {
  name: string;
  email: string;
  password: string;
  confirmPassword: string;
  invite: string;
}

const EMPTY: Values = { name: '', email: '', password: '', confirmPassword: '', invite: '' };

/**
 * The guest's sign-in form with a login/register toggle.
 * Registration checks the required fields and equal passwords before anything is sent; it asks
 * for an invitation code, or is not offered, as the site's registration policy says. An account
 * with two-factor sign-in continues with the code step after its password.
 */
export function AuthForm({ initialMode = 'login' }: { initialMode?: AuthMode }) {
  const { t } = useTranslation();
  const { t: ta } = useTranslation(ACCOUNT_NS);
  const { t: tr } = useTranslation(RESET_NS);
  const { t: tv, i18n } = useTranslation(VERIFY_NS);
  const policy = useRegistrationPolicy().data?.policy;
  const canReset = useForgotAvailable().data?.available === true;
  const id = useId();
  const [mode, setMode] = useState<AuthMode>(initialMode);
  const [values, setValues] = useState<Values>(EMPTY);
  // What the form itself refused before sending; the server's answers are the mutations'.
  const [refused, setRefused] = useState<string | null>(null);
  const login = useLogin();
  const register = useRegister();
  const passkey = usePasskeySignIn();
  const busy = login.isPending || register.isPending || passkey.isPending;
  const isRegister = mode === 'register' && policy !== 'closed';
  const needsInvite = isRegister && policy === 'invite';
  // The password step's answer for an account with a second factor: the code step follows.
  const challenge = [login.data, register.data].find(isMfaChallenge) ?? null;
  // A registration that signs in only once its e-mail is confirmed.
  const pending = isVerificationPending(register.data) ? register.data : null;
  const loginUnverified = unverified(login.error);

  // One attempt's outcome at a time: a new one (or the other mode) forgets the last.
  const forget = () => {
    setRefused(null);
    login.reset();
    register.reset();
    passkey.reset();
  };

  let error = refused;
  let fields: Record<string, string> = {};
  if (!error && register.error) {
    fields = fieldErrors(register.error, t);
    error = errorText(register.error, t, t('auth.errors.registerFailed'), 'register');
  } else if (!error && loginUnverified) {
    error = tv('unverified');
  } else if (!error && login.error) {
    error =
      login.error instanceof ApiError && login.error.status === 429
        ? errorText(login.error, t, t('auth.errors.loginFailed'))
        : t('auth.errors.loginFailed');
  } else if (!error && passkey.error) {
    error = ta('login.passkeyFailed');
  }

  const set = (key: keyof Values) => (e: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [key]: e.target.value }));

  const toggle = () => {
    setMode(isRegister ? 'login' : 'register');
    forget();
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    forget();
    const required: Array<keyof Values> = isRegister ? ['name', 'email', 'password', 'confirmPassword'] : ['email', 'password'];
    if (needsInvite) required.push('invite');
    if (required.some((k) => !values[k].trim())) {
      setRefused(t('auth.form.required'));
      return;
    }
    if (isRegister && values.password !== values.confirmPassword) {
      setRefused(t('auth.errors.passwordsMismatch'));
      return;
    }
    const lang = i18n.resolvedLanguage ?? i18n.language;
    if (isRegister) register.mutate(needsInvite ? { ...values, lang } : { ...values, invite: undefined, lang });
    else login.mutate({ email: values.email, password: values.password });
  };

  const field = (key: keyof Values, label: string, type: string, autoComplete: string) => (
    <div className="auth-form__field">
      <label htmlFor={`${id}-${key}`}>{label}</label>
      <input className="field-input"
        id={`${id}-${key}`}
        name={key}
        type={type}
        autoComplete={autoComplete}
        required
        value={values[key]}
        onChange={set(key)}
        aria-invalid={fields[key] ? true : undefined}
        aria-describedby={fields[key] ? `${id}-${key}-error` : undefined}
      />
      {fields[key] ? (
        <span id={`${id}-${key}-error`} className="auth-form__field-error">
          {fields[key]}
        </span>
      ) : null}
    </div>
  );

  const withPasskey = () => {
    forget();
    passkey.mutate();
  };

  if (challenge) {
    return (
      <MfaStep
        mfaToken={challenge.mfaToken}
        passkey={challenge.methods?.includes('passkey') ?? false}
        onBack={() => {
          forget();
          setValues((v) => ({ ...v, password: '' }));
        }}
      />
    );
  }

  if (pending) {
    return (
      <div className="auth-form">
        <h2 className="auth-form__title">{t('auth.form.registerTitle')}</h2>
        <p className="auth-form__success" role="status">{tv('registered', { email: pending.user.email })}</p>
        <ResendVerification email={pending.user.email} />
        <button type="button" className="btn btn--ghost auth-form__toggle" onClick={() => { setMode('login'); forget(); setValues((v) => ({ ...v, password: '', confirmPassword: '' })); }}>
          {t('auth.form.toLogin')}
        </button>
      </div>
    );
  }

  const title = isRegister ? t('auth.form.registerTitle') : t('auth.form.loginTitle');
  return (
    <>
      <form className="auth-form" onSubmit={onSubmit} aria-label={title} noValidate>
        <h2 className="auth-form__title">{title}</h2>
        {isRegister ? field('name', t('auth.form.name'), 'text', 'name') : null}
        {field('email', t('auth.form.email'), 'email', isRegister ? 'email' : 'username')}
        {field('password', t('auth.form.password'), 'password', isRegister ? 'new-password' : 'current-password')}
        {!isRegister && canReset ? (
          <Link className="auth-form__forgot" to={FORGOT_PASSWORD_PATH}>
            {tr('forgotLink')}
          </Link>
        ) : null}
        {isRegister ? field('confirmPassword', t('auth.form.confirmPassword'), 'password', 'new-password') : null}
        {needsInvite ? field('invite', ta('register.invite'), 'text', 'off') : null}
        {mode === 'register' && policy === 'closed' ? <p className="profile-section__hint">{ta('register.closed')}</p> : null}
        {error ? (
          <p className="auth-form__error" role="alert">
            {error}
          </p>
        ) : null}
        <button type="submit" className="btn btn--primary" disabled={busy}>
          {busy ? t('auth.form.submitting') : isRegister ? t('auth.form.submitRegister') : t('auth.form.submitLogin')}
        </button>
        {!isRegister && passkeysSupported() && !onIPAddress() ? (
          <button type="button" className="btn auth-form__passkey" onClick={withPasskey} disabled={busy}>
            {ta('login.withPasskey')}
          </button>
        ) : null}
        {policy === 'closed' && !isRegister ? null : (
          <button type="button" className="btn btn--ghost auth-form__toggle" onClick={toggle}>
            {isRegister ? t('auth.form.toLogin') : t('auth.form.toRegister')}
          </button>
        )}
      </form>
      {/* Its own form, beside the sign-in one: forms do not nest. */}
      {loginUnverified ? <ResendVerification email={values.email} /> : null}
    </>
  );
}
