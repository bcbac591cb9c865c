// The profile's Friends and Messages sections, one chunk loaded when either opens.
import './i18n';

export { FriendsSection } from './components/FriendsSection';
export { MessagesSection } from './components/MessagesSection';
