import ProfilePage from '../features/auth/pages/ProfilePage';
import { QuotaUsage } from '../features/files/components/QuotaUsage';
import { MyShares } from '../features/files/shares/MyShares';

/** /profile: the account's cabinet, with what the other features show in it. */
export default function ProfileRoute() {
  return (
    <ProfilePage
      slots={{
        quota: <QuotaUsage className="profile-overview__quota" />,
        overview: <MyShares />,
      }}
    />
  );
}
