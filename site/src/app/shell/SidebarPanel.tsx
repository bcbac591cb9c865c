import { useRef, type RefObject } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import { useAuth } from '../../lib/auth';
import { useDismiss } from '../../lib/useDismiss';
import { useFocusTrap } from '../../lib/useFocusTrap';
import { CloseIcon } from './icons';
import { SIDE_MENU_ITEMS, TOOL_ITEMS, type NavItem } from './navItems';

export interface SidebarProps {
  id: string;
  open: boolean;
  onClose: () => void;
  /** The menu button: a press on it is not an "outside click", and the focus returns to it on close. */
  toggleRef: RefObject<HTMLButtonElement | null>;
}

const SIDEBAR_MAIN: readonly NavItem[] = [
  { to: '/', labelKey: 'home' },
  { to: '/games', labelKey: 'games' },
  { to: '/blog', labelKey: 'blog' },
  { to: '/filecloud', labelKey: 'files' },
];

/**
 * The open side menu (drawer) shown at ≤ 1024 px, in a chunk of its own (Sidebar.tsx loads it).
 * While open it is modal: the focus moves to its close button, Tab stays inside, the page behind
 * (the header with the menu button included) is inert, and Escape, its close button or a press
 * outside close it with the focus back on the menu button. Choosing a link closes it too.
 */
export default function SidebarPanel({ id, onClose, toggleRef }: Omit<SidebarProps, 'open'>) {
  const { t } = useTranslation();
  const { user, isAdmin, logout } = useAuth();
  const panelRef = useRef<HTMLElement>(null);
  const trapRef = useRef<HTMLDivElement>(null);
  useDismiss(true, [panelRef, toggleRef], onClose);
  useFocusTrap(trapRef, true, { onEscape: onClose, returnFocusTo: toggleRef });

  const link = (item: NavItem) => (
    <li key={item.to}>
      <NavLink to={item.to} end className="sidebar__link" onClick={onClose}>
        {t(item.labelKey)}
      </NavLink>
    </li>
  );

  // Portalled to <body>: the sticky header's backdrop-filter would otherwise clip a fixed panel.
  // The backdrop is inside the trapped container, so it is not made inert and a press on it closes.
  return createPortal(
    <div ref={trapRef} className="sidebar__layer">
      <div className="sidebar__backdrop" aria-hidden="true" />
      <nav id={id} ref={panelRef} className="sidebar" aria-label={t('sideMenu.title')}>
        <div className="sidebar__top">
          <button type="button" className="menu-button sidebar__close" aria-label={t('closeMenu')} onClick={onClose} data-autofocus>
            <CloseIcon />
          </button>
        </div>
        <ul className="sidebar__list">{SIDEBAR_MAIN.map(link)}</ul>

        <h2 className="sidebar__heading">{t('tools')}</h2>
        <ul className="sidebar__list">{TOOL_ITEMS.map(link)}</ul>

        <h2 className="sidebar__heading">{t('sideMenu.account')}</h2>
        <ul className="sidebar__list">
          {SIDE_MENU_ITEMS.filter((i) => !i.adminOnly || isAdmin).map(link)}
        </ul>

        <div className="sidebar__account">
          {user ? (
            <>
              <p className="sidebar__user">{t('sideMenu.signedInAs', { email: user.email })}</p>
              <button
                type="button"
                className="btn"
                onClick={() => {
                  onClose();
                  void logout();
                }}
              >
                {t('logout')}
              </button>
            </>
          ) : (
            <>
              <NavLink to="/profile" className="btn btn--primary" onClick={onClose}>
                {t('login')}
              </NavLink>
              <NavLink to="/profile?mode=register" className="btn" onClick={onClose}>
                {t('register')}
              </NavLink>
            </>
          )}
        </div>
      </nav>
    </div>,
    document.body,
  );
}
