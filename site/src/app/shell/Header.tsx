import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, useLocation } from 'react-router';
import { useAuth } from '../../lib/auth';
import { useSiteBrand } from '../../lib/profile';
import { useAfterIdle } from '../../lib/useAfterIdle';
import { MenuIcon } from './icons';
import { LanguageSelector } from './LanguageSelector';
import { ThemeSwitch } from './ThemeSwitch';
import { ADMIN_PATH, MAIN_ITEMS, SHELL_BREAKPOINT_PX } from './navItems';
import { preloadSidebar, Sidebar } from './Sidebar';
import { ToolsDropdown } from './ToolsDropdown';
import './shell.css';

export const BRAND_FALLBACK = 'DevHub';

// The bell (and the live event stream it listens to) loads only for a signed-in user, outside the
// home page's first load, and once the browser is first idle: the page's own chunk, data and
// rendering come first.
const NotificationBell = lazy(() =>
  import('../../components/notifications/NotificationBell').then((m) => ({ default: m.NotificationBell })),
);

const warmSidebar = () => void preloadSidebar().catch(() => undefined); // opening it tries again
const SIDEBAR_ID = 'site-sidebar';

/** The site header. Until localization is ready (`ready` false) it shows the brand only. */
export function Header({ ready }: { ready: boolean }) {
  if (!ready) {
    return (
      <header className="site-header">
        <div className="site-header__inner">
          <a className="brand" href="/">
            <span className="brand__mark" aria-hidden="true">
              {'</>'}
            </span>
            <span className="brand__name">{BRAND_FALLBACK}</span>
          </a>
        </div>
      </header>
    );
  }
  return <ReadyHeader />;
}

function ReadyHeader() {
  const { t } = useTranslation();
  const { isAdmin, user } = useAuth();
  const brand = useSiteBrand({ load: true });
  const [menuOpen, setMenuOpen] = useState(false);
  const menuButtonRef = useRef<HTMLButtonElement>(null);
  const location = useLocation();
  const closeMenu = useCallback(() => setMenuOpen(false), []);

  // Any navigation closes the sidebar.
  useEffect(closeMenu, [location.pathname, location.search, closeMenu]);

  // Growing past the breakpoint closes it too (there is no sidebar on wide screens).
  useEffect(() => {
    if (!menuOpen || typeof window.matchMedia !== 'function') return;
    const mq = window.matchMedia(`(max-width: ${SHELL_BREAKPOINT_PX}px)`);
    const onChange = () => {
      if (!mq.matches) closeMenu();
    };
    mq.addEventListener('change', onChange);
    return () => mq.removeEventListener('change', onChange);
  }, [menuOpen, closeMenu]);

  const onAdminSection = new URLSearchParams(location.search).get('section') === 'admin';
  const idle = useAfterIdle();

  return (
    <header className="site-header">
      <div className="site-header__inner">
        <Link className="brand" to="/">
          <span className="brand__mark" aria-hidden="true">
            {'</>'}
          </span>
          <span className="brand__text">
            <span className="brand__name">{brand.name}</span>
            <span className="brand__subtitle">{brand.subtitle}</span>
          </span>
        </Link>

        <nav className="site-nav" aria-label={t('mainNavigation')}>
          <ToolsDropdown />
          {MAIN_ITEMS.map((item) => (
            <NavLink
              key={item.to}
              to={item.to}
              // NavLink ignores the query string: on the admin section only
              // the admin link is the current one.
              className={({ isActive }) => (isActive && !onAdminSection ? 'nav-link active' : 'nav-link')}
            >
              {t(item.labelKey)}
            </NavLink>
          ))}
          {isAdmin ? (
            <NavLink
              to={ADMIN_PATH}
              className={({ isActive }) => (isActive && onAdminSection ? 'nav-link active' : 'nav-link')}
            >
              {t('admin')}
            </NavLink>
          ) : null}
        </nav>

        <div className="site-header__actions">
          {user && idle ? (
            <Suspense fallback={null}>
              <NotificationBell />
            </Suspense>
          ) : null}
          <LanguageSelector />
          <ThemeSwitch />
          {user?.avatarUrl ? (
            <Link className="header-avatar" to="/profile" aria-label={t('profile')}>
              <img src={user.avatarUrl} alt="" width={36} height={36} />
            </Link>
          ) : null}
          <button
            ref={menuButtonRef}
            type="button"
            className="menu-button"
            aria-expanded={menuOpen}
            aria-controls={SIDEBAR_ID}
            // While the drawer is open the header is inert behind it and the drawer's own button
            // closes it: this one stays the menu button, so the drawer shows one close button.
            aria-label={t('openMenu')}
            onClick={() => setMenuOpen((o) => !o)}
            // The drawer's chunk starts loading when a press is coming, not at the click.
            onPointerEnter={warmSidebar}
            onPointerDown={warmSidebar}
            onFocus={warmSidebar}
          >
            <MenuIcon />
          </button>
        </div>
      </div>
      <Sidebar id={SIDEBAR_ID} open={menuOpen} onClose={closeMenu} toggleRef={menuButtonRef} />
    </header>
  );
}
