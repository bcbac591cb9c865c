// The IP report's own strings, shipped in its chunk (useTranslation('ip')). The spec's texts
// (title, the Share fallback's alert, the navigation type names) keep its English wording.
import { registerTranslations } from '../../../lib/i18n';
import en from './locales/en.json';
import ru from './locales/ru.json';
import uk from './locales/uk.json';

export const IP_NS = 'ip';
registerTranslations(IP_NS, { uk, ru, en });

/** Spec §7/§8: the alert when the device cannot share and the text went to the clipboard. */
export const COPIED_ALERT = 'Information copied to clipboard!';
