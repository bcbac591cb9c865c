// The portfolio pages' own strings (useTranslation / getFixedT with ns 'portfolio'). Unlike the
// rest of the site these pages carry a language selector of their own (home
// uk/en/ru, skills en/ru, development tools en/ru/uk/es/fr/pt). The site's languages are here;
// es, fr and pt, which only the development-tools page offers, are in i18nPageOnly.ts, imported
// by that page alone so the home and skills pages do not download them.
import { registerTranslations } from '../../../lib/i18n';
import en from './locales/en.json';
import ru from './locales/ru.json';
import uk from './locales/uk.json';

export const PORTFOLIO_NS = 'portfolio';
registerTranslations(PORTFOLIO_NS, { en, uk, ru });
