// The tone generator's own strings, shipped in its chunk (useTranslation('tone')). The spec's
// texts (§2 title, §8 errors) keep their wording: English in the English bundle, and the
// frequency error's Russian wording ('Frequency must be from 1 to 21000 Hz') in the
// Russian one.
import { registerTranslations } from '../../../lib/i18n';
import en from './locales/en.json';
import ru from './locales/ru.json';
import uk from './locales/uk.json';

export const TONE_NS = 'tone';
registerTranslations(TONE_NS, { uk, ru, en });
