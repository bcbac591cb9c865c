import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { SECTIONS, sectionHref, type Section } from '../sections';

/** The profile's section menu; the admin entry is shown to admins only. */
export function ProfileSidebar({ current, isAdmin }: { current: Section; isAdmin: boolean }) {
  const { t } = useTranslation();
  return (
    <nav className="profile-sidebar" aria-label={t('auth.sectionsNav')}>
      <ul>
        {SECTIONS.filter((s) => s !== 'admin' || isAdmin).map((s) => (
          <li key={s}>
            <Link
              to={sectionHref(s)}
              className="profile-sidebar__link"
              aria-current={s === current ? 'page' : undefined}
            >
              {t(`auth.sections.${s}`)}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
