// The portfolio editor's strings, shipped with its page's chunk (useTranslation('portfolioEditor')).
import { registerTranslations } from '../../../lib/i18n';
import en from './locales/en.json';
import ru from './locales/ru.json';
import uk from './locales/uk.json';

export const EDITOR_NS = 'portfolioEditor';
registerTranslations(EDITOR_NS, { uk, ru, en });
