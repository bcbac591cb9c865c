import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { TextField } from '../../../components/ui/Field';
import { Page } from '../../../components/ui/Page';
import { ApiError } from '../../../lib/api';
import { getContactChallenge, useSendContact } from '../api';
import { SOCIAL_NS } from '../i18n';
import { solvePow } from '../pow';
import '../social.css';

/** The longest message the form takes (contact.max_length's default). */
export const CONTACT_MAX_LENGTH = 5000;

type Check = { state: 'working' } | { state: 'ready'; altcha: string } | { state: 'failed' };

/**
 * Solves a fresh proof-of-work challenge as soon as the page opens (a fraction of a second), so
 * the visitor does not wait when they send; `renew` starts over with a new one (after a send, or
 * when the server refused the solution).
 */
function useProofOfWork() {
  const [check, setCheck] = useState<Check>({ state: 'working' });
  const run = useRef<AbortController | null>(null);
  const renew = useCallback(() => {
    run.current?.abort();
    const ctl = new AbortController();
    run.current = ctl;
    setCheck({ state: 'working' });
    getContactChallenge(ctl.signal)
      .then((c) => solvePow(c, ctl.signal))
      .then(
        (altcha) => {
          if (!ctl.signal.aborted) setCheck({ state: 'ready', altcha });
        },
        () => {
          if (!ctl.signal.aborted) setCheck({ state: 'failed' });
        },
      );
  }, []);
  useEffect(() => {
    renew();
    return () => run.current?.abort();
  }, [renew]);
  return { check, renew };
}

function fieldError(err: unknown, field: string): string | null {
  if (!(err instanceof ApiError) || !err.data) return null;
  const f = (err.data as Record<string, { message?: string } | undefined>)[field];
  return f?.message ?? null;
}

/** /contact: anyone writes to the site's owner (it lands in the admins' messages). */
export default function ContactPage() {
  const { t } = useTranslation(SOCIAL_NS);
  const [form, setForm] = useState({ name: '', email: '', message: '', website: '' });
  const [sent, setSent] = useState(false);
  const { check, renew } = useProofOfWork();
  const send = useSendContact();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (check.state !== 'ready' || send.isPending) return;
    send.mutate(
      { ...form, altcha: check.altcha },
      {
        onSuccess: () => {
          setSent(true);
          setForm({ name: '', email: '', message: '', website: '' });
          renew();
        },
        onError: () => renew(), // a solution is good for one try
      },
    );
  };

  const err = send.error;
  const general = err && !fieldError(err, 'name') && !fieldError(err, 'email') && !fieldError(err, 'message') ? err : null;
  const set = (k: keyof typeof form) => (e: { target: { value: string } }) => {
    setSent(false);
    setForm((f) => ({ ...f, [k]: e.target.value }));
  };

  return (
    <Page title={t('contact.title')} lead={t('contact.lead')} className="contact-page">
      {sent ? (
        <p className="contact-page__done" role="status">
          {t('contact.sent')}
        </p>
      ) : null}
      <form className="contact-form" onSubmit={submit} noValidate={false}>
        <label htmlFor="contact-name">{t('contact.name')}</label>
        <TextField id="contact-name" value={form.name} onChange={set('name')} required maxLength={100} autoComplete="name"
          aria-invalid={fieldError(err, 'name') ? true : undefined} aria-describedby={fieldError(err, 'name') ? 'contact-name-error' : undefined} />
        {fieldError(err, 'name') ? <p id="contact-name-error" className="contact-form__error">{fieldError(err, 'name')}</p> : null}

        <label htmlFor="contact-email">{t('contact.email')}</label>
        <TextField id="contact-email" type="email" value={form.email} onChange={set('email')} required autoComplete="email"
          aria-invalid={fieldError(err, 'email') ? true : undefined} aria-describedby={fieldError(err, 'email') ? 'contact-email-error' : undefined} />
        {fieldError(err, 'email') ? <p id="contact-email-error" className="contact-form__error">{fieldError(err, 'email')}</p> : null}

        <label htmlFor="contact-message">{t('contact.message')}</label>
        <textarea id="contact-message" className="field-input contact-form__message" value={form.message} onChange={set('message')}
          required rows={6} maxLength={CONTACT_MAX_LENGTH}
          aria-invalid={fieldError(err, 'message') ? true : undefined} aria-describedby="contact-message-count" />
        <p id="contact-message-count" className="contact-form__count">
          {t('contact.count', { count: form.message.length, max: CONTACT_MAX_LENGTH })}
        </p>
        {fieldError(err, 'message') ? <p className="contact-form__error">{fieldError(err, 'message')}</p> : null}

        {/* People never see or fill this; robots that fill every field are dropped quietly. */}
        <div className="contact-form__trap" aria-hidden="true">
          <label htmlFor="contact-website">Website</label>
          <input id="contact-website" name="website" type="text" tabIndex={-1} autoComplete="off" value={form.website} onChange={set('website')} />
        </div>

        <p className="contact-form__check" role="status">
          {check.state === 'working' ? t('contact.checking') : check.state === 'ready' ? t('contact.checked') : null}
        </p>
        {check.state === 'failed' ? (
          <p className="contact-form__error" role="alert">
            {t('contact.checkFailed')}{' '}
            <button type="button" className="btn" onClick={renew}>
              {t('contact.retry')}
            </button>
          </p>
        ) : null}
        {general ? (
          <p className="contact-form__error" role="alert">
            {general instanceof ApiError && general.status === 429 ? t('contact.tooMany') : (general as Error).message || t('failed')}
          </p>
        ) : null}
        <button type="submit" className="btn btn--primary" disabled={check.state !== 'ready' || send.isPending}>
          {send.isPending ? t('contact.sending') : t('contact.send')}
        </button>
      </form>
    </Page>
  );
}
