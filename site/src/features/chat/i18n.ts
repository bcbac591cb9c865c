// The chat page's own strings, shipped in its chunk (useTranslation('chat')).
import { registerTranslations } from '../../lib/i18n';
import en from './locales/en.json';
import ru from './locales/ru.json';
import uk from './locales/uk.json';

export const CHAT_NS = 'chat';
registerTranslations(CHAT_NS, { uk, ru, en });
