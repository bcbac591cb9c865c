// The file cloud's own strings, shipped in its chunk (useTranslation('files')). The spec's texts
// (§8) stay word for word in the language the spec gives them: the cloud page's English texts in
// the English bundle, the detail page's Ukrainian errors and units in the Ukrainian one.
import { registerTranslations } from '../../lib/i18n';
import en from './locales/en.json';
import ru from './locales/ru.json';
import uk from './locales/uk.json';

export const FILES_NS = 'files';
registerTranslations(FILES_NS, { uk, ru, en });
