// The forum's own strings, shipped in its chunk (useTranslation('forum')).
import { registerTranslations } from '../../lib/i18n';
import en from './locales/en.json';
import ru from './locales/ru.json';
import uk from './locales/uk.json';

export const FORUM_NS = 'forum';
registerTranslations(FORUM_NS, { uk, ru, en });
