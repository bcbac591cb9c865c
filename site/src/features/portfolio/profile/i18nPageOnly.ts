// The portfolio strings in es, fr and pt: only the development-tools page offers these languages
//, so only it imports this module (the site's languages are in i18n.ts).
import { registerTranslations } from '../../../lib/i18n';
import { PORTFOLIO_NS } from './i18n';
import es from './locales/es.json';
import fr from './locales/fr.json';
import pt from './locales/pt.json';

registerTranslations(PORTFOLIO_NS, { es, fr, pt });
