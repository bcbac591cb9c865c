// The password reset pages' strings, shipped with their chunk (useTranslation('passwordReset')).
import { registerTranslations } from '../../../lib/i18n';
import en from './locales/en.json';
import ru from './locales/ru.json';
import uk from './locales/uk.json';

export const RESET_NS = 'passwordReset';
registerTranslations(RESET_NS, { uk, ru, en });
