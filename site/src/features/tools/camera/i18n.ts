// The camera page's own strings, shipped in its chunk (useTranslation('camera')). The error
// messages keep the spec's wording (§8) in the Russian bundle — the page's spec language.
import { registerTranslations } from '../../../lib/i18n';
import en from './locales/en.json';
import ru from './locales/ru.json';
import uk from './locales/uk.json';

export const CAMERA_NS = 'camera';
registerTranslations(CAMERA_NS, { uk, ru, en });
