import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink, useLocation } from 'react-router';
import { useMenuButton } from '../../lib/useMenuButton';
import { ChevronDownIcon } from './icons';
import { TOOL_ITEMS, isToolsPath } from './navItems';

/**
 * The header's Tools dropdown. Its items are links, yet it follows the menu-button pattern rather
 * than a disclosure: the issue asks for arrow-key movement and one Tab stop for the whole list, the
 * APG documents the very case ("Navigation Menu Button", menuitem links), and the language menu
 * beside it behaves the same, so both header dropdowns read and move alike. Closes on outside
 * press, Escape (focus back on the button), Tab, choosing an item and route change.
 */
export function ToolsDropdown() {
  const { t } = useTranslation();
  const { open, close, rootRef, buttonProps, menuProps } = useMenuButton();
  const location = useLocation();

  useEffect(() => close(), [location.pathname, location.search, close]);

  const active = isToolsPath(location.pathname);

  return (
    <div className="dropdown" ref={rootRef}>
      <button type="button" className={'nav-link dropdown__toggle' + (active ? ' is-active' : '')} {...buttonProps}>
        {t('tools')}
        <ChevronDownIcon className={'dropdown__chevron' + (open ? ' is-open' : '')} />
      </button>
      {open ? (
        <ul className="dropdown__menu" {...menuProps} aria-label={t('toolsDropdown')}>
          {TOOL_ITEMS.map((item) => (
            <li key={item.to} role="none">
              <NavLink to={item.to} end role="menuitem" tabIndex={-1} className="dropdown__item" onClick={() => close(true)}>
                {t(item.labelKey)}
              </NavLink>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
