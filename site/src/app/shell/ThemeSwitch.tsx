import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { savedTheme, setTheme, THEMES, type Theme } from '../../lib/theme';
import { useMenuButton } from '../../lib/useMenuButton';

const svg = (children: ReactNode) => (
  <svg width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2"
    strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
    {children}
  </svg>
);

const ICONS: Record<Theme, ReactNode> = {
  light: svg(
    <>
      <circle cx="12" cy="12" r="4" />
      <path d="M12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4" />
    </>,
  ),
  dark: svg(<path d="M21 12.8A9 9 0 1 1 11.2 3a7 7 0 0 0 9.8 9.8z" />),
  system: svg(
    <>
      <rect x="3" y="4" width="18" height="12" rx="2" />
      <path d="M8 20h8M12 16v4" />
    </>,
  ),
};

/**
 * The header's theme switch: light, dark or the system's, remembered (lib/theme). A menu button
 * like the language selector; its items are menuitemradio, the current one checked.
 */
export function ThemeSwitch() {
  const { t } = useTranslation();
  const [theme, setState] = useState<Theme>(savedTheme);
  const { open, close, rootRef, buttonProps, menuProps } = useMenuButton();

  return (
    <div className="dropdown theme-switch" ref={rootRef}>
      <button
        type="button"
        className="theme-switch__toggle"
        {...buttonProps}
        aria-label={`${t('theme.label')}: ${t(`theme.${theme}`)}`}
        title={t('theme.label')}
      >
        {ICONS[theme]}
      </button>
      {open ? (
        <ul className="dropdown__menu dropdown__menu--end" {...menuProps} aria-label={t('theme.label')}>
          {THEMES.map((th) => (
            <li key={th} role="none">
              <button
                type="button"
                className={'dropdown__item' + (th === theme ? ' is-active' : '')}
                role="menuitemradio"
                tabIndex={-1}
                aria-checked={th === theme}
                onClick={() => {
                  close(true);
                  setTheme(th);
                  setState(th);
                }}
              >
                {ICONS[th]}
                <span>{t(`theme.${th}`)}</span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
