import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { usePageTitle } from '../lib/usePageTitle';

/** History back; on a page opened directly (nothing to go back to) go home instead. */
function goBack(navigate: ReturnType<typeof useNavigate>) {
  const idx = (window.history.state as { idx?: number } | null)?.idx;
  if (typeof idx === 'number' && idx > 0) navigate(-1);
  else navigate('/');
}

/** Any unknown path: home / back / emulators, quick links, the visit logged to the console. */
export default function NotFoundPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const path = location.pathname + location.search;
  usePageTitle(t('notFound.title'));

  useEffect(() => {
    console.warn(`[404] Page not found: ${path}`);
  }, [path]);

  return (
    <section className="not-found" aria-labelledby="not-found-title">
      <p className="not-found__code" aria-hidden="true">
        {t('notFound.code')}
      </p>
      <h1 className="not-found__title" id="not-found-title">
        {t('notFound.title')}
      </h1>
      <p className="not-found__text">{t('notFound.text', { path: location.pathname })}</p>
      <div className="not-found__actions">
        <button type="button" className="btn btn--primary" onClick={() => navigate('/')}>
          {t('notFound.home')}
        </button>
        <button type="button" className="btn" onClick={() => goBack(navigate)}>
          {t('notFound.back')}
        </button>
        <button type="button" className="btn" onClick={() => navigate('/games')}>
          {t('notFound.emulators')}
        </button>
      </div>
      <h2 className="not-found__links-title">{t('notFound.quickLinks')}</h2>
      <ul className="not-found__links">
        <li>
          <Link to="/blog">{t('notFound.blog')}</Link>
        </li>
        <li>
          <Link to="/filecloud">{t('notFound.fileCloud')}</Link>
        </li>
        <li>
          <Link to="/chat">{t('notFound.discussion')}</Link>
        </li>
      </ul>
    </section>
  );
}
