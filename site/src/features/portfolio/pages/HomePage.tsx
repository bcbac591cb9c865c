import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Skeleton, SkeletonBox } from '../../../components/ui/Skeleton';
import type { PageLanguage } from '../../../lib/i18n';
import { usePageTitle } from '../../../lib/usePageTitle';
import { HomeIcon } from '../home/HomeIcon';
import { HOME_ROUTES, type HomeRoute } from '../home/homeRoutes';
import { HOME_NS } from '../home/i18n';
import '../home/home.css';
import { PORTFOLIO_NS } from '../profile/i18n';
import { LanguageSelect, usePageLanguage } from '../profile/LanguageSelect';
import { OwnerHero } from '../profile/OwnerHero';
import { useProfile } from '../profile/useProfile';

/** The home page's own languages. */
export const HOME_LANGUAGES: readonly PageLanguage[] = ['uk', 'en', 'ru'];

/**
 * The home page: a hero with title, intro and the
 * still-under-construction note, the owner and their projects, then one card per section and the
 * catch-all card. Its language selector (uk/en/ru) is local to the page; it starts in the site's
 * language — English unless the visitor chose or was detected otherwise — so a Ukrainian visitor
 * is not greeted in English on a Ukrainian site, and follows the header's language when it changes.
 */
export default function HomePage() {
  const { i18n } = useTranslation();
  const { lang, setLang } = usePageLanguage(HOME_LANGUAGES);
  const t = i18n.getFixedT(lang, HOME_NS);
  usePageTitle(t('documentTitle'));
  // The owner block's size is known only with the profile: until it has arrived (or failed) a
  // placeholder a screen tall stands for the owner and the cards, so the cards do not jump down
  // when the owner appears above them. isFetched, not isPending: a failed read that the owner
  // block retries as it mounts is pending again, and must not swap the cards out for the placeholder.
  const profilePending = !useProfile().isFetched;
  return (
    <div className="home" lang={lang}>
      <LanguageSelect offered={HOME_LANGUAGES} value={lang} onChange={setLang} />
      <section className="home-hero" aria-labelledby="page-title">
        <h1 id="page-title" className="home-hero__title">
          {t('title')}
        </h1>
        <p className="home-hero__intro">{t('intro')}</p>
        <p className="home-hero__notice">
          <HomeIcon name="construction" />
          <span>{t('construction')}</span>
        </p>
      </section>
      {profilePending ? (
        <Skeleton label={i18n.getFixedT(lang, PORTFOLIO_NS)('loading')} className="home-skeleton">
          <SkeletonBox className="home-skeleton__owner" />
          <SkeletonBox className="home-skeleton__cards" />
        </Skeleton>
      ) : (
        <>
          <OwnerHero lang={lang} />
          <section aria-labelledby="home-sections">
            <h2 id="home-sections" className="visually-hidden">
              {t('sections')}
            </h2>
            <ul className="home-cards">
              {HOME_ROUTES.map((route) => (
                <HomeCard key={route.path} route={route} t={t} />
              ))}
            </ul>
          </section>
        </>
      )}
    </div>
  );
}

function HomeCard({ route, t }: { route: HomeRoute; t: TFunction }) {
  const id = `home-card-${route.iconKey}`;
  return (
    <li className={route.soon ? 'home-card home-card--soon' : 'home-card'}>
      <span className="home-card__icon">
        <HomeIcon name={route.iconKey} />
      </span>
      {/* The title is not a heading: the cards are a list of links, and the catch-all card's
          title must not read as the not-found page's own heading. The link covers the whole
          card (::after); its name is the title, the rest of the card describes it. */}
      <p className="home-card__title">
        {route.to ? (
          <Link className="home-card__link" to={route.to} aria-describedby={id}>
            {t(route.titleKey)}
          </Link>
        ) : (
          t(route.titleKey)
        )}
      </p>
      <p className="home-card__text" id={id}>
        {t(route.descriptionKey)}
        {route.soon ? (
          <>
            {' '}
            <span className="home-card__badge">{t('soon')}</span>
          </>
        ) : null}
      </p>
      <code className="home-card__path">{route.path === '*' ? `* — ${t('anyPath')}` : route.path}</code>
    </li>
  );
}
