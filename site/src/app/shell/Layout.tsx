import { Suspense, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router';
import { PageErrorBoundary } from '../PageErrorBoundary';
import { useRouteDescription } from '../../lib/pageDescription';
import { releaseServerRender } from '../../lib/ssr';
import { useI18nReady } from '../shellContext';
import { useActivityLogging } from '../useActivityLogging';
import { Footer } from './Footer';
import { Header } from './Header';
import { PageLoader } from './Loader';

/** The global shell around every route: header, the lazy page, footer. */
export function Layout() {
  const ready = useI18nReady();
  useActivityLogging();
  useScrollToTopOnNavigation();
  return (
    <div className="site-shell">
      {ready ? <SkipLink /> : null}
      <Header ready={ready} />
      <main id="main" className="site-main" tabIndex={-1}>
        {ready ? <ReadyContent /> : null}
      </main>
      {ready ? <Footer /> : null}
    </div>
  );
}

function ReadyContent() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  useRouteDescription(); // once i18n is ready: it reads the language
  // the server's text of the first page is not the page navigated to
  const first = useRef(pathname);
  useEffect(() => {
    if (pathname !== first.current) releaseServerRender();
  }, [pathname]);
  return (
    <PageErrorBoundary key={pathname}>
      <Suspense fallback={<PageLoader label={t('pageLoading')} />}>
        <Outlet />
      </Suspense>
    </PageErrorBoundary>
  );
}

function SkipLink() {
  const { t } = useTranslation();
  return (
    <a className="skip-link" href="#main">
      {t('skipToContent')}
    </a>
  );
}

/** A new page starts at the top (history back/forward included: pages re-render from scratch). */
function useScrollToTopOnNavigation() {
  const { pathname } = useLocation();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    window.scrollTo(0, 0);
  }, [pathname]);
}
