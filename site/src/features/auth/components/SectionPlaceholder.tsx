import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** The chat placeholder (spec §2 "Chat page"): chat is in development; the local chat is linked. */
export function ChatPlaceholder() {
  const { t } = useTranslation();
  return (
    <section className="profile-section" aria-labelledby="profile-chat-title">
      <h2 id="profile-chat-title" className="profile-section__title">
        {t('auth.chat.title')}
      </h2>
      <p>{t('auth.chat.text')}</p>
      <ul className="profile-section__features">
        <li>{t('auth.chat.messaging')}</li>
        <li>{t('auth.chat.instant')}</li>
      </ul>
      <Link to="/chat" className="btn">
        {t('auth.chat.open')}
      </Link>
    </section>
  );
}
