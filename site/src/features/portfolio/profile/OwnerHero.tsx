// The home page's owner block: avatar, name, headline, location, bio and links, then the featured
// projects — all from content/profile.yaml, in the home page's language. Without a profile it is absent.
import { useTranslation } from 'react-i18next';
import type { PageLanguage } from '../../../lib/i18n';
import { PORTFOLIO_NS } from './i18n';
import { ProfileIcon } from './ProfileIcon';
import { pick, useProfile } from './useProfile';
import './profile.css';

export function OwnerHero({ lang }: { lang: PageLanguage }) {
  const { i18n } = useTranslation();
  const t = i18n.getFixedT(lang, PORTFOLIO_NS);
  const { data: p } = useProfile();
  if (!p) return null;
  return (
    <>
      <section className="owner" aria-label={pick(p.name, lang)}>
        {p.avatarUrl ? <img className="owner__avatar" src={p.avatarUrl} alt="" width={96} height={96} /> : null}
        <div>
          <p className="owner__name">{pick(p.name, lang)}</p>
          <p className="owner__headline">{pick(p.headline, lang)}</p>
          {p.location ? <p className="owner__headline">{pick(p.location, lang)}</p> : null}
          <p>{pick(p.bio, lang)}</p>
          {p.links.length ? (
            <ul className="owner__links" aria-label={t('links')}>
              {p.links.map((l) => (
                <li key={l.url}>
                  <a href={l.url} rel="me noopener noreferrer" target="_blank">
                    <ProfileIcon name={l.icon} size={18} />
                    {l.label}
                  </a>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      </section>
      {p.projects.length ? (
        <section aria-labelledby="home-projects">
          <h2 id="home-projects">{t('projects')}</h2>
          <ul className="projects">
            {p.projects.map((pr) => (
              <li key={pr.name} className="project">
                <h3>
                  <a href={pr.link} rel="noopener noreferrer" target="_blank">
                    {pr.name}
                  </a>
                </h3>
                <p>{pick(pr.description, lang)}</p>
                {pr.tags?.length ? (
                  <ul className="project__tags">
                    {pr.tags.map((tag) => (
                      <li key={tag}>{tag}</li>
                    ))}
                  </ul>
                ) : null}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}
