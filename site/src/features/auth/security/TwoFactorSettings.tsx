import { useEffect, useId, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { ApiError } from '../../../lib/api';
import { QueryState } from '../../../lib/QueryState';
import { retryAfterSeconds } from '../errors';
import { useBeginTotp, useConfirmTotp, useDisableTotp, useTwoFactorStatus, type ConfirmTotpAnswer, type Enrolment } from './api';
import { ACCOUNT_NS } from './i18n';

/** The QR code of an otpauth URL, drawn in the browser (the qrcode library loads on demand). */
function OtpQr({ url }: { url: string }) {
  const { t } = useTranslation(ACCOUNT_NS);
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let alive = true;
    void import('qrcode')
      .then((m) => m.toDataURL(url, { margin: 1, width: 192, errorCorrectionLevel: 'M' }))
      .then((d) => alive && setSrc(d))
      .catch(() => undefined);
    return () => {
      alive = false;
    };
  }, [url]);
  return (
    <div className="twofactor__qr" style={{ width: 192, height: 192 }}>
      {src ? <img src={src} width={192} height={192} alt={t('twoFactor.qr')} /> : null}
    </div>
  );
}

function CodeForm({
  label,
  submit,
  hint,
  extra,
  busy,
  error,
  onSubmit,
  onCancel,
}: {
  label: string;
  submit: string;
  hint?: string;
  /** More fields of the form, below the code. */
  extra?: ReactNode;
  busy: boolean;
  error: string | null;
  onSubmit: (code: string) => void;
  onCancel?: () => void;
}) {
  const { t } = useTranslation(ACCOUNT_NS);
  const id = useId();
  const [code, setCode] = useState('');
  const send = (e: FormEvent) => {
    e.preventDefault();
    if (code.trim()) onSubmit(code.trim());
  };
  return (
    <form className="auth-form twofactor__form" onSubmit={send} noValidate>
      {hint ? <p id={`${id}-hint`}>{hint}</p> : null}
      <div className="auth-form__field">
        <label htmlFor={`${id}-code`}>{label}</label>
        <input className="field-input"
          id={`${id}-code`}
          name="code"
          autoComplete="one-time-code"
          value={code}
          maxLength={32}
          aria-describedby={hint ? `${id}-hint` : undefined}
          onChange={(e) => setCode(e.target.value)}
        />
      </div>
      {extra}
      {error ? (
        <p className="auth-form__error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="twofactor__actions">
        <button type="submit" className="btn btn--primary" disabled={busy || !code.trim()}>
          {submit}
        </button>
        {onCancel ? (
          <button type="button" className="btn" onClick={onCancel}>
            {t('twoFactor.cancel')}
          </button>
        ) : null}
      </div>
    </form>
  );
}

/** The recovery codes, shown once after enrolment, with a copy button. */
function RecoveryCodes({ codes, signedOut, onDone }: { codes: string[]; signedOut: number; onDone: () => void }) {
  const { t } = useTranslation(ACCOUNT_NS);
  const [copied, setCopied] = useState(false);
  const copy = () => {
    void navigator.clipboard?.writeText(codes.join('\n')).then(() => setCopied(true), () => undefined);
  };
  return (
    <div className="twofactor__recovery">
      <h4>{t('twoFactor.recoveryTitle')}</h4>
      {signedOut > 0 ? <p role="status">{t('twoFactor.signedOut', { count: signedOut })}</p> : null}
      <p>{t('twoFactor.recoveryHint')}</p>
      <ol className="twofactor__codes" aria-label={t('twoFactor.recoveryTitle')}>
        {codes.map((c) => (
          <li key={c}>
            <code>{c}</code>
          </li>
        ))}
      </ol>
      <div className="twofactor__actions">
        <button type="button" className="btn" onClick={copy}>
          {copied ? t('twoFactor.copied') : t('twoFactor.copy')}
        </button>
        <button type="button" className="btn btn--primary" onClick={onDone}>
          {t('twoFactor.done')}
        </button>
      </div>
    </div>
  );
}

function codeError(err: unknown, t: TFunction): string | null {
  if (!err) return null;
  if (err instanceof ApiError && (err.status === 400 || err.status === 401)) return t('twoFactor.wrongCode');
  // Wrong codes are limited (per account and per network): the wait in the reader's language,
  // not the server's English sentence.
  if (err instanceof ApiError && err.status === 429) return t('twoFactor.throttled', { seconds: retryAfterSeconds(err) ?? 60 });
  return t('twoFactor.error');
}

/**
 * Two-factor sign-in in the profile's settings: its state; turning it on (a QR code and the key
 * as text, a code to confirm, then the recovery codes shown once); turning it off with a code.
 */
export function TwoFactorSettings() {
  const { t } = useTranslation(ACCOUNT_NS);
  const status = useTwoFactorStatus();
  const begin = useBeginTotp();
  const confirm = useConfirmTotp();
  const disable = useDisableTotp();
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [confirmed, setConfirmed] = useState<ConfirmTotpAnswer | null>(null);
  const [disabling, setDisabling] = useState(false);
  // Sessions begun with the password alone end when the second factor turns on, unless the
  // owner unticks it (a session of whoever made them want a second factor would outlive it).
  const [signOutOthers, setSignOutOthers] = useState(true);
  const signOutId = useId();

  const start = () =>
    begin.mutate(undefined, {
      onSuccess: (en) => {
        setSignOutOthers(true);
        setEnrolment(en);
      },
    });
  const finish = (code: string) =>
    confirm.mutate(
      { code, signOutOthers },
      {
        onSuccess: (res) => {
          setEnrolment(null);
          setConfirmed(res);
        },
      },
    );
  const turnOff = (code: string) => disable.mutate(code, { onSuccess: () => setDisabling(false) });

  let body;
  if (confirmed) {
    body = <RecoveryCodes codes={confirmed.recoveryCodes} signedOut={confirmed.signedOut} onDone={() => setConfirmed(null)} />;
  } else if (enrolment) {
    body = (
      <div className="twofactor__enrol">
        <p>{t('twoFactor.scan')}</p>
        <OtpQr url={enrolment.otpauthUrl} />
        <p>
          {t('twoFactor.secret')}: <code className="twofactor__secret">{enrolment.secret}</code>
        </p>
        <CodeForm
          label={t('twoFactor.confirmCode')}
          submit={t('twoFactor.confirm')}
          extra={
            <div className="twofactor__check">
              <input
                type="checkbox"
                id={signOutId}
                checked={signOutOthers}
                onChange={(e) => setSignOutOthers(e.target.checked)}
              />
              <label htmlFor={signOutId}>{t('twoFactor.signOutOthers')}</label>
            </div>
          }
          busy={confirm.isPending}
          error={codeError(confirm.error, t)}
          onSubmit={finish}
          onCancel={() => setEnrolment(null)}
        />
      </div>
    );
  } else {
    body = (
      <QueryState query={status} loading={null} error={t('twoFactor.error')} className="twofactor__loading" errorClassName="auth-form__error">
        {(s) =>
          s.totp ? (
            <>
              <p>{t('twoFactor.on')}</p>
              <p>{t('twoFactor.recoveryLeft', { count: s.recoveryCodesLeft })}</p>
              {disabling ? (
                <CodeForm
                  label={t('mfa.code')}
                  submit={t('twoFactor.disable')}
                  hint={t('twoFactor.disableHint')}
                  busy={disable.isPending}
                  error={codeError(disable.error, t)}
                  onSubmit={turnOff}
                  onCancel={() => setDisabling(false)}
                />
              ) : (
                <button type="button" className="btn" onClick={() => setDisabling(true)}>
                  {t('twoFactor.disable')}
                </button>
              )}
            </>
          ) : (
            <>
              <p>{t('twoFactor.off')}</p>
              <button type="button" className="btn btn--primary" onClick={start} disabled={begin.isPending}>
                {t('twoFactor.enable')}
              </button>
              {begin.error ? (
                <p className="auth-form__error" role="alert">
                  {t('twoFactor.error')}
                </p>
              ) : null}
            </>
          )
        }
      </QueryState>
    );
  }

  return (
    <section className="profile-section twofactor" aria-labelledby="twofactor-title">
      <h3 id="twofactor-title" className="profile-section__title">
        {t('twoFactor.title')}
      </h3>
      {body}
    </section>
  );
}
