// The comments' own strings (useTranslation('comments')).
import { registerTranslations } from '../../../lib/i18n';
import en from './locales/en.json';
import ru from './locales/ru.json';
import uk from './locales/uk.json';

export const COMMENTS_NS = 'comments';
registerTranslations(COMMENTS_NS, { uk, ru, en });
