// The moderation queue's strings (useTranslation('moderation')).
import { registerTranslations } from '../../lib/i18n';
import en from './locales/en.json';
import ru from './locales/ru.json';
import uk from './locales/uk.json';

export const MODERATION_NS = 'moderation';
registerTranslations(MODERATION_NS, { uk, ru, en });
