// The blog's own strings, shipped in its chunk (useTranslation('blog')). The toasts keep the
// spec's wording (§8) in the Russian bundle, where the spec states them.
import { registerTranslations } from '../../lib/i18n';
import en from './locales/en.json';
import ru from './locales/ru.json';
import uk from './locales/uk.json';

export const BLOG_NS = 'blog';
registerTranslations(BLOG_NS, { uk, ru, en });
