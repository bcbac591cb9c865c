import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAuth } from '../../lib/auth';
import { useUnreadCount } from './api';
import { NOTIFICATIONS_NS } from './i18n';
import './notifications.css';

/** The header's bell: the unread count, live; it opens the profile's notifications. */
export function NotificationBell() {
  const { user } = useAuth();
  const { t } = useTranslation(NOTIFICATIONS_NS);
  const unread = useUnreadCount();
  if (!user) return null;
  const label = unread > 0 ? t('bellUnread', { count: unread }) : t('bell');
  return (
    <Link to="/profile?section=notifications" className="notify-bell" aria-label={label} title={label}>
      <svg width={20} height={20} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.9" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
        <path d="M18 8a6 6 0 1 0-12 0c0 7-3 9-3 9h18s-3-2-3-9M13.73 21a2 2 0 0 1-3.46 0" />
      </svg>
      {unread > 0 ? (
        <span className="notify-bell__count" aria-hidden="true" data-testid="notify-count">
          {unread > 99 ? '99+' : unread}
        </span>
      ) : null}
    </Link>
  );
}
