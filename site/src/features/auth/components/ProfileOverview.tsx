import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { User } from '../../../lib/auth';
import '../self/self.css';

/**
 * The quick links. A section whose page does not exist yet is marked `soon` and left out, so no
 * quick link leads to the not-found page; dropping the mark when the page arrives brings it back
 * (its texts stay in the locales).
 */
const QUICK_LINKS: ReadonlyArray<{ to: string; key: string; soon?: true }> = [
  { to: '/chat', key: 'chat' },
  { to: '/filecloud', key: 'files' },
  { to: '/blog', key: 'blog' },
  { to: '/games', key: 'emulator' },
  { to: '/programs', key: 'programs' },
  { to: '/alavar', key: 'alavar' },
];

const LIVE_QUICK_LINKS = QUICK_LINKS.filter((l) => !l.soon);

/**
 * The signed-in overview: e-mail, admin badge, online status, logout, quick links, and what the
 * shell puts in `quota` (the file cloud's storage quota).
 */
export function ProfileOverview({
  user,
  isAdmin,
  onLogout,
  quota,
}: {
  user: User;
  isAdmin: boolean;
  onLogout: () => void;
  quota?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <section className="profile-section" aria-labelledby="profile-overview-email">
      <header className="profile-overview__header">
        {user.avatarUrl ? <img className="profile-overview__avatar" src={user.avatarUrl} alt="" width={64} height={64} /> : null}
        <div className="profile-overview__who">
          <h2 id="profile-overview-email" className="profile-overview__email">
            {user.email}
          </h2>
          <div className="profile-overview__meta">
            {isAdmin ? <span className="badge badge--admin">{t('auth.overview.adminBadge')}</span> : null}
            <span className="profile-overview__status">
              <span className="profile-overview__dot" aria-hidden="true" />
              {t('auth.overview.online')}
            </span>
          </div>
          {user.name ? <p className="profile-overview__name">{t('auth.overview.welcome', { name: user.name })}</p> : null}
        </div>
        <button type="button" className="btn" onClick={onLogout}>
          {t('logout')}
        </button>
      </header>
      {quota}
      <nav aria-label={t('auth.overview.quickLinks')}>
        <h3 className="profile-section__subtitle">{t('auth.overview.quickLinks')}</h3>
        <ul className="profile-overview__links">
          {LIVE_QUICK_LINKS.map((l) => (
            <li key={l.key}>
              <Link to={l.to} className="profile-overview__link">
                {t(`auth.overview.${l.key}`)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </section>
  );
}
