// The notifications' strings (useTranslation('notifications')): the header's bell and the
// profile's list.
import { registerTranslations } from '../../lib/i18n';
import en from './locales/en.json';
import ru from './locales/ru.json';
import uk from './locales/uk.json';

export const NOTIFICATIONS_NS = 'notifications';
registerTranslations(NOTIFICATIONS_NS, { uk, ru, en });
