import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { currentLanguage, setLanguage } from '../../lib/i18n';
import { LANGUAGES } from '../../lib/languageDetection';
import { useDismiss } from '../../lib/useDismiss';
import { Flag } from './Flag';
import { ChevronDownIcon } from './icons';

/** Language selector (uk/ru/en with name and flag); the choice is saved as preferredLanguage. */
export function LanguageSelector() {
  const { t, i18n } = useTranslation();
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const listId = useId();
  const location = useLocation();
  const close = useCallback(() => setOpen(false), []);

  useDismiss(open, [rootRef], close);
  useEffect(close, [location.pathname, close]);

  // re-render on language change is driven by useTranslation; read the normalised value
  void i18n.language;
  const current = currentLanguage();
  const currentRecord = LANGUAGES.find((l) => l.code === current) ?? LANGUAGES[2];

  return (
    <div className="dropdown lang" ref={rootRef}>
      <button
        type="button"
        className="lang__toggle"
        aria-expanded={open}
        aria-controls={listId}
        aria-haspopup="true"
        aria-label={`${t('chooseLanguage')}: ${currentRecord.name}`}
        title={t('language')}
        onClick={() => setOpen((o) => !o)}
      >
        <Flag code={currentRecord.code} />
        <span className="lang__code">{currentRecord.code.toUpperCase()}</span>
        <ChevronDownIcon className={'dropdown__chevron' + (open ? ' is-open' : '')} />
      </button>
      {open ? (
        <ul className="dropdown__menu dropdown__menu--end" id={listId} aria-label={t('chooseLanguage')}>
          {LANGUAGES.map((lang) => (
            <li key={lang.code}>
              <button
                type="button"
                lang={lang.code}
                className={'dropdown__item' + (lang.code === current ? ' is-active' : '')}
                aria-pressed={lang.code === current}
                onClick={() => {
                  close();
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
