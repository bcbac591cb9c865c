import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink, useLocation } from 'react-router';
import { useDismiss } from '../../lib/useDismiss';
import { ChevronDownIcon } from './icons';
import { TOOL_ITEMS } from './navItems';

/** The header's Tools dropdown: closes on outside click, Escape, choosing an item and route change. */
export function ToolsDropdown() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const menuId = useId();
  const location = useLocation();
  const close = useCallback(() => setOpen(false), []);

  useDismiss(open, [rootRef], close);
  useEffect(close, [location.pathname, location.search, close]);

  const active = location.pathname.startsWith('/tools');

  return (
    <div className="dropdown" ref={rootRef}>
      <button
        type="button"
        className={'nav-link dropdown__toggle' + (active ? ' is-active' : '')}
        aria-expanded={open}
        aria-controls={menuId}
        aria-haspopup="true"
        onClick={() => setOpen((o) => !o)}
      >
        {t('tools')}
        <ChevronDownIcon className={'dropdown__chevron' + (open ? ' is-open' : '')} />
      </button>
      {open ? (
        <ul className="dropdown__menu" id={menuId} aria-label={t('toolsDropdown')}>
          {TOOL_ITEMS.map((item) => (
            <li key={item.to}>
              <NavLink to={item.to} className="dropdown__item" onClick={close}>
                {t(item.labelKey)}
              </NavLink>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
