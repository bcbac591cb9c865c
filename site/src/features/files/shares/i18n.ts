// The strings of share links, private files and previews, shipped with the file pages' chunks
// (useTranslation('shares')).
import { registerTranslations } from '../../../lib/i18n';
import en from './locales/en.json';
import ru from './locales/ru.json';
import uk from './locales/uk.json';

export const SHARES_NS = 'shares';
registerTranslations(SHARES_NS, { uk, ru, en });
