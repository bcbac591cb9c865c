// The games page's own strings, shipped in its chunk (useTranslation('games')). The three error
// texts keep the spec's wording (§8) in every language.
import { registerTranslations } from '../../lib/i18n';
import en from './locales/en.json';
import ru from './locales/ru.json';
import uk from './locales/uk.json';

export const GAMES_NS = 'games';
registerTranslations(GAMES_NS, { uk, ru, en });
