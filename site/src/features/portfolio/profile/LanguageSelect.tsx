import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PageLanguage } from '../../../lib/i18n';
import { PORTFOLIO_NS } from './i18n';
import { Select } from '../../../components/ui/Field';

/**
 * For each site language, the page languages nearest to it, nearest first: Ukrainian and Russian
 * readers read each other's language more easily than English, and English is the one every text has.
 */
const NEAREST: Readonly<Record<string, readonly PageLanguage[]>> = {
  uk: ['uk', 'ru', 'en'],
  ru: ['ru', 'uk', 'en'],
  en: ['en'],
};

/** The language a page with texts in `offered` opens in under the site's language `site`. */
export function nearestLanguage(site: string, offered: readonly PageLanguage[]): PageLanguage {
  const order = NEAREST[site] ?? [site as PageLanguage, 'en'];
  return order.find((l) => offered.includes(l)) ?? (offered.includes('en') ? 'en' : offered[0]);
}

/**
 * The page's own language. It is the site's (the header's) when the page has texts in it, else the
 * nearest it has (nearestLanguage), and it follows the header when that changes. The page's
 * selector picks another for as long as the header's language stays as it was.
 */
export function usePageLanguage(offered: readonly PageLanguage[]) {
  const { i18n } = useTranslation();
  const site = i18n.language;
  const [picked, setLang] = useState<PageLanguage | null>(null);
  // A change of the header's language drops the page's pick (adjusted while rendering, so the
  // page never shows one frame in the old language).
  const [pickedUnder, setPickedUnder] = useState(site);
  if (pickedUnder !== site) {
    setPickedUnder(site);
    setLang(null);
  }
  const lang = picked && pickedUnder === site && offered.includes(picked) ? picked : nearestLanguage(site, offered);
  const t = i18n.getFixedT(lang, PORTFOLIO_NS);
  return { lang, setLang, t };
}

/** A language selector local to one page; it does not change the site's language. */
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
