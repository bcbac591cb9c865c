import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { currentLanguage, setLanguage } from '../../lib/i18n';
import { LANGUAGES } from '../../lib/languageDetection';
import { useMenuButton } from '../../lib/useMenuButton';
import { Flag } from './Flag';
import { ChevronDownIcon } from './icons';

/**
 * Language selector (uk/ru/en with name and flag); the choice is saved as preferredLanguage.
 * A menu button (lib/useMenuButton) whose items are menuitemradio: choosing a language is an
 * action on the page, and the checked item tells which one is current.
 */
export function LanguageSelector() {
  const { t, i18n } = useTranslation();
  const { open, close, rootRef, buttonProps, menuProps } = useMenuButton();
  const location = useLocation();

  useEffect(() => close(), [location.pathname, close]);

  // re-render on language change is driven by useTranslation; read the normalised value
  void i18n.language;
  const current = currentLanguage();
  const currentRecord = LANGUAGES.find((l) => l.code === current) ?? LANGUAGES[2];

  return (
    <div className="dropdown lang" ref={rootRef}>
      <button
        type="button"
        className="lang__toggle"
        {...buttonProps}
        aria-label={`${currentRecord.code.toUpperCase()} — ${t('chooseLanguage')}: ${currentRecord.name}`}
        title={t('language')}
      >
        <Flag code={currentRecord.code} />
        <span className="lang__code">{currentRecord.code.toUpperCase()}</span>
        <ChevronDownIcon className={'dropdown__chevron' + (open ? ' is-open' : '')} />
      </button>
      {open ? (
        <ul className="dropdown__menu dropdown__menu--end" {...menuProps} aria-label={t('chooseLanguage')}>
          {LANGUAGES.map((lang) => (
            <li key={lang.code} role="none">
              <button
                type="button"
                lang={lang.code}
                className={'dropdown__item' + (lang.code === current ? ' is-active' : '')}
                role="menuitemradio"
                tabIndex={-1}
                aria-checked={lang.code === current}
                onClick={() => {
                  close(true);
                  void setLanguage(lang.code);
                }}
              >
                <Flag code={lang.code} />
                <span>{lang.name}</span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
