// The /contact route's chunk: the page with its strings.
import '../i18n';

export { default } from './ContactPage';
