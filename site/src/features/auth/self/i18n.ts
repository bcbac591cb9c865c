// The account's own settings strings, shipped with the profile page's chunk (useTranslation('self')).
import { registerTranslations } from '../../../lib/i18n';
import en from './locales/en.json';
import ru from './locales/ru.json';
import uk from './locales/uk.json';

export const SELF_NS = 'self';
registerTranslations(SELF_NS, { uk, ru, en });
