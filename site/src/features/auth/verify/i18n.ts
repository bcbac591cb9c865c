// The e-mail verification strings (useTranslation('emailVerify')): the page the mailed links open
// and the "send the link again" form the sign-in, sign-up and account sections show.
import { registerTranslations } from '../../../lib/i18n';
import en from './locales/en.json';
import ru from './locales/ru.json';
import uk from './locales/uk.json';

export const VERIFY_NS = 'emailVerify';
registerTranslations(VERIFY_NS, { uk, ru, en });
