// The strings of friends, messages and the contact form, shipped with their chunks
// (useTranslation('social')).
import { registerTranslations } from '../../lib/i18n';
import en from './locales/en.json';
import ru from './locales/ru.json';
import uk from './locales/uk.json';

export const SOCIAL_NS = 'social';
registerTranslations(SOCIAL_NS, { uk, ru, en });
