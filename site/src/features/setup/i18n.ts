// The first-run page's own strings, shipped in its chunk (useTranslation('setup')).
import { registerTranslations } from '../../lib/i18n';
import en from './locales/en.json';
import ru from './locales/ru.json';
import uk from './locales/uk.json';

export const SETUP_NS = 'setup';
registerTranslations(SETUP_NS, { uk, ru, en });
