// /skills: the owner's services, technologies and tools from
// content/profile.yaml, each with its icon, in English or Russian (the page's own selector; under
// the Ukrainian header it opens in Russian, the nearest of the two: usePageLanguage).
import { Page } from '../../../components/ui/Page';
import type { PageLanguage } from '../../../lib/i18n';
import { LanguageSelect, usePageLanguage } from '../profile/LanguageSelect';
import { ProfileIcon } from '../profile/ProfileIcon';
import { ProfileState } from '../profile/ProfileState';
import { pick, useProfile, type Profile } from '../profile/useProfile';
import '../profile/profile.css';

export const SKILLS_LANGUAGES: readonly PageLanguage[] = ['en', 'ru'];

type Item = Profile['services'][number];

function Section({ id, title, items, lang, described }: { id: string; title: string; items: Item[]; lang: PageLanguage; described?: boolean }) {
  return (
    <section className="profile-section" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <ul className={described ? 'profile-grid' : 'profile-chips'}>
        {items.map((item) =>
          described ? (
            <li key={item.icon + pick(item.name, 'en')} className="profile-card">
              <ProfileIcon name={item.icon} />
              <div>
                <h3>{pick(item.name, lang)}</h3>
                <p>{pick(item.description, lang)}</p>
              </div>
            </li>
          ) : (
            <li key={item.icon + pick(item.name, 'en')} className="profile-chip">
              <ProfileIcon name={item.icon} size={20} />
              {pick(item.name, lang)}
            </li>
          ),
        )}
      </ul>
    </section>
  );
}

export default function SkillsPage() {
  const { lang, setLang, t } = usePageLanguage(SKILLS_LANGUAGES);
  const query = useProfile();
  const p = query.data;
  if (query.isPending) {
    // Nothing but the title has its size yet: the placeholder stands for the lead and the rest.
    return (
      <Page title={t('skillsTitle')} titleLang={lang}>
        <ProfileState query={query} t={t} />
      </Page>
    );
  }
  return (
    <Page title={t('skillsTitle')} titleLang={lang} lead={p ? pick(p.headline, lang) : undefined}>
      <div lang={lang}>
        <LanguageSelect offered={SKILLS_LANGUAGES} value={lang} onChange={setLang} />
        <ProfileState query={query} t={t} />
        {p ? (
          <>
            <Section id="skills-services" title={t('services')} items={p.services} lang={lang} described />
            <Section id="skills-technologies" title={t('technologies')} items={p.technologies} lang={lang} />
            <Section id="skills-tools" title={t('tools')} items={p.tools} lang={lang} />
          </>
        ) : null}
      </div>
    </Page>
  );
}
