// The download sections' own strings, shipped in their chunk (useTranslation('downloads')).
import { registerTranslations } from '../../lib/i18n';
import en from './locales/en.json';
import ru from './locales/ru.json';
import uk from './locales/uk.json';

export const DOWNLOADS_NS = 'downloads';
registerTranslations(DOWNLOADS_NS, { uk, ru, en });
