import { useTranslation } from 'react-i18next';
import { BLOG_NS } from '../i18n';
import { useNewsletterAvailable, useSubscriberCounts } from './api';

/**
 * The admin panel's newsletter section: how many confirmed subscribers the blog has (per language)
 * and how many have not confirmed yet; with mail off, that the newsletter is off.
 */
export default function NewsletterCount() {
  const { t } = useTranslation(BLOG_NS);
  const available = useNewsletterAvailable().data?.available;
  const counts = useSubscriberCounts(true).data;
  const langs = Object.entries(counts?.byLang ?? {}).sort(([a], [b]) => a.localeCompare(b));
  return (
    <section className="profile-section" aria-labelledby="newsletter-count-title">
      <h2 id="newsletter-count-title">{t('newsletter.title')}</h2>
      {available === false ? <p>{t('newsletter.off')}</p> : null}
      {counts ? (
        <>
          <p>{t('newsletter.count', { count: counts.confirmed, pending: counts.pending })}</p>
          {langs.length ? <p>{langs.map(([lang, n]) => `${lang}: ${n}`).join(' · ')}</p> : null}
        </>
      ) : null}
    </section>
  );
}
