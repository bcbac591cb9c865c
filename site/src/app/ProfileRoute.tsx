import { lazy } from 'react';
import ProfilePage from '../features/auth/pages/ProfilePage';
import { QuotaUsage } from '../features/files/components/QuotaUsage';
import { MyShares } from '../features/files/shares/MyShares';

// Friends and messages are their own feature, loaded with their section.
const FriendsSection = lazy(() => import('../features/social/sections').then((m) => ({ default: m.FriendsSection })));
const MessagesSection = lazy(() => import('../features/social/sections').then((m) => ({ default: m.MessagesSection })));
// The blog newsletter's subscriber count, in the admin panel.
const NewsletterCount = lazy(() => import('../features/blog/newsletter/NewsletterCount'));

/** /profile: the account's cabinet, with what the other features show in it. */
export default function ProfileRoute() {
  return (
    <ProfilePage
      slots={{
        quota: <QuotaUsage className="profile-overview__quota" />,
        overview: <MyShares />,
        messages: <MessagesSection />,
        friends: <FriendsSection />,
        admin: <NewsletterCount />,
      }}
    />
  );
}
