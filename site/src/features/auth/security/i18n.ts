// The account-security strings (two-factor sign-in, sessions, user management, invitations,
// audit log), shipped with the profile page's chunk (useTranslation('account')).
import { registerTranslations } from '../../../lib/i18n';
import en from './locales/en.json';
import ru from './locales/ru.json';
import uk from './locales/uk.json';

export const ACCOUNT_NS = 'account';
registerTranslations(ACCOUNT_NS, { uk, ru, en });
