// The microphone page's own strings, shipped in its chunk (useTranslation('microphone')).
// The English bundle holds the spec's error messages and hint word for word (§5, §8).
import { registerTranslations } from '../../../lib/i18n';
import en from './locales/en.json';
import ru from './locales/ru.json';
import uk from './locales/uk.json';

export const MIC_NS = 'microphone';
registerTranslations(MIC_NS, { uk, ru, en });
