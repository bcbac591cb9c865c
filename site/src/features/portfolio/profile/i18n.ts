// The portfolio pages' own strings (useTranslation / getFixedT with ns 'portfolio'). Unlike the
// rest of the site these pages carry a language selector of their own (portfolio spec §2: skills
// en/ru, development tools en/ru/uk/es/fr/pt), so the bundles include es, fr and pt, which the
// shell's selector does not offer.
import { registerTranslations } from '../../../lib/i18n';
import en from './locales/en.json';
import es from './locales/es.json';
import fr from './locales/fr.json';
import pt from './locales/pt.json';
import ru from './locales/ru.json';
import uk from './locales/uk.json';

export const PORTFOLIO_NS = 'portfolio';
registerTranslations(PORTFOLIO_NS, { en, uk, ru, es, fr, pt });
