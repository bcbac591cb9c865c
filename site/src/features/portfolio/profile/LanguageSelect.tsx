import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PageLanguage } from '../../../lib/i18n';
import { PORTFOLIO_NS } from './i18n';
import { Select } from '../../../components/ui/Field';

/** The page's own language: the site's when the page offers it, else English. */
export function usePageLanguage(offered: readonly PageLanguage[]) {
  const { i18n } = useTranslation();
  const site = i18n.language as PageLanguage;
  const [lang, setLang] = useState<PageLanguage>(offered.includes(site) ? site : 'en');
  const t = i18n.getFixedT(lang, PORTFOLIO_NS);
  return { lang, setLang, t };
}

/** A language selector local to one page (portfolio spec §2); it does not change the site's language. */
export function LanguageSelect({ offered, value, onChange }: { offered: readonly PageLanguage[]; value: PageLanguage; onChange: (l: PageLanguage) => void }) {
  const { i18n } = useTranslation();
  const t = i18n.getFixedT(value, PORTFOLIO_NS);
  return (
    <label className="profile-lang">
      <span>{t('language')}</span>{' '}
      <Select value={value} onChange={(e) => onChange(e.target.value as PageLanguage)}>
        {offered.map((l) => (
          <option key={l} value={l} lang={l}>
            {t(`langs.${l}`)}
          </option>
        ))}
      </Select>
    </label>
  );
}
