import { useTranslation } from 'react-i18next';
import type { Section } from '../sections';

/** Messages and friends (spec §2): 'section in development'. */
export function InDevelopment({ section }: { section: Section }) {
  const { t } = useTranslation();
  return (
    <section className="profile-section" aria-labelledby={`profile-${section}-title`}>
      <h2 id={`profile-${section}-title`} className="profile-section__title">
        {t(`auth.sections.${section}`)}
      </h2>
      <p>{t(`auth.descriptions.${section}`)}</p>
      <p className="profile-section__notice" role="status">
        {t('auth.inDevelopment')}
      </p>
    </section>
  );
}
