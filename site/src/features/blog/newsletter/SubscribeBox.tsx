import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api';
import { BLOG_NS } from '../i18n';
import { useNewsletterAvailable, useSubscribe, useSubscriberCounts } from './api';
import './newsletter.css';

/** A plausible address: something@something.tld, no spaces. The server checks it for real. */
const EMAIL_RE = /^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/;

/**
 * The blog's subscribe box: shown only when the server offers the newsletter (mail is on). The
 * visitor gives an address and is told the same whether or not it is already subscribed: a
 * confirmation link is on its way, in the interface language, which is also the language of the
 * articles mailed. An admin also sees how many confirmed subscribers there are.
 */
export function SubscribeBox({ isAdmin = false }: { isAdmin?: boolean }) {
  const { t, i18n } = useTranslation(BLOG_NS);
  const id = useId();
  const available = useNewsletterAvailable().data?.available === true;
  const counts = useSubscriberCounts(available && isAdmin).data;
  const subscribe = useSubscribe();
  const [email, setEmail] = useState('');
  const [invalid, setInvalid] = useState(false);

  if (!available) return null;

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const addr = email.trim();
    const bad = !EMAIL_RE.test(addr);
    setInvalid(bad);
    if (bad) return;
    subscribe.mutate({ email: addr, lang: (i18n.resolvedLanguage ?? i18n.language).split('-')[0] });
  };

  let error: string | null = invalid ? t('newsletter.invalid') : null;
  const err = subscribe.error;
  if (!error && err) {
    if (err instanceof ApiError && err.status === 429) error = t('newsletter.throttled');
    else if (err instanceof ApiError && err.status === 400) error = t('newsletter.invalid');
    else if (err instanceof ApiError && err.status === 404) error = t('newsletter.unavailable');
    else error = t('newsletter.failed');
  }

  return (
    <section className="newsletter-box" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="newsletter-box__title">
        {t('newsletter.title')}
      </h2>
      {subscribe.isSuccess ? (
        <p className="newsletter-box__done" role="status">
          {t('newsletter.sent')}
        </p>
      ) : (
        <form className="newsletter-box__form" onSubmit={onSubmit} noValidate>
          <p className="newsletter-box__lead">{t('newsletter.lead')}</p>
          <label htmlFor={`${id}-email`} className="newsletter-box__label">
            {t('newsletter.email')}
          </label>
          <div className="newsletter-box__row">
            <input
              id={`${id}-email`}
              className="field-input newsletter-box__input"
              type="email"
              name="email"
              autoComplete="email"
              placeholder={t('newsletter.placeholder')}
              value={email}
              aria-invalid={error ? true : undefined}
              onChange={(e) => setEmail(e.target.value)}
            />
            <button type="submit" className="btn btn--primary" disabled={subscribe.isPending}>
              {subscribe.isPending ? t('newsletter.sending') : t('newsletter.subscribe')}
            </button>
          </div>
          {error ? (
            <p className="newsletter-box__error" role="alert">
              {error}
            </p>
          ) : null}
        </form>
      )}
      {counts ? <p className="newsletter-box__count">{t('newsletter.count', { count: counts.confirmed, pending: counts.pending })}</p> : null}
    </section>
  );
}
