// /tools: the owner's tools in five groups with
// icons, the intro and the closing philosophy, in six languages (the page's own selector).
import { Page } from '../../../components/ui/Page';
import type { PageLanguage } from '../../../lib/i18n';
import '../profile/i18nPageOnly';
import { LanguageSelect, usePageLanguage } from '../profile/LanguageSelect';
import { ProfileIcon } from '../profile/ProfileIcon';
import { ProfileState } from '../profile/ProfileState';
import { pick, useProfile } from '../profile/useProfile';
import '../profile/profile.css';

export const DEV_TOOLS_LANGUAGES: readonly PageLanguage[] = ['en', 'ru', 'uk', 'es', 'fr', 'pt'];

export default function DevToolsPage() {
  const { lang, setLang, t } = usePageLanguage(DEV_TOOLS_LANGUAGES);
  const query = useProfile();
  const p = query.data;
  if (query.isPending) {
    // Nothing but the title has its size yet: the placeholder stands for the lead and the rest.
    return (
      <Page title={t('devToolsTitle')} titleLang={lang}>
        <ProfileState query={query} t={t} />
      </Page>
    );
  }
  return (
    <Page title={t('devToolsTitle')} titleLang={lang} lead={p ? pick(p.devtools.intro, lang) : undefined}>
      <div lang={lang}>
        <LanguageSelect offered={DEV_TOOLS_LANGUAGES} value={lang} onChange={setLang} />
        <ProfileState query={query} t={t} />
        {p ? (
          <>
            {p.devtools.groups.map((g, i) => (
              <section key={i} className="profile-section" aria-labelledby={`devtools-${i}`}>
                <h2 id={`devtools-${i}`}>{pick(g.title, lang)}</h2>
                <ul className="profile-chips">
                  {g.tools.map((tool) => (
                    <li key={tool.icon + pick(tool.name, 'en')} className="profile-chip">
                      <ProfileIcon name={tool.icon} size={20} />
                      {pick(tool.name, lang)}
                    </li>
                  ))}
                </ul>
              </section>
            ))}
            <section className="profile-section" aria-labelledby="devtools-philosophy">
              <h2 id="devtools-philosophy">{t('philosophy')}</h2>
              <p className="profile-philosophy">{pick(p.devtools.philosophy, lang)}</p>
            </section>
          </>
        ) : null}
      </div>
    </Page>
  );
}
