// The home page's own strings, shipped in its lazy chunk (useTranslation('home')).
//
// The home page has no language selector of its own: devhub has one site-wide selector in the
// shell (saved choice → country → browser → English), and it is the single source of truth: a second,
// page-local selector would disagree with the header. So the home page follows the shell's
// language, and its default is the shell's — English when nothing else is known.
//
// The namespace is 'home' (not a "home" object in src/locales/*.json): the shell already uses the
// top-level key "home" for its "Home" label, and these strings need not load on other routes.
import { registerTranslations } from '../../../lib/i18n';
import en from './locales/en.json';
import ru from './locales/ru.json';
import uk from './locales/uk.json';

export const HOME_NS = 'home';
registerTranslations(HOME_NS, { uk, ru, en });
