import { Suspense, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { Page } from '../../../components/ui/Page';
import { useAuth } from '../../../lib/auth';
import { AccessDenied, AdminPanel } from '../components/AdminPanel';
import { AuthForm } from '../components/AuthForm';
import { ChangePasswordForm } from '../components/ChangePasswordForm';
import { ProfileOverview } from '../components/ProfileOverview';
import { ProfileSidebar } from '../components/ProfileSidebar';
import { NotificationList } from '../../../components/notifications/NotificationList';
import { AuditLog } from '../security/AuditLog';
import { InvitesPanel } from '../security/InvitesPanel';
import { ModerationQueue } from '../../../components/moderation/ModerationQueue';
import { AccountSettings, PortfolioEditorLink } from '../self/AccountSettings';
import { PasskeysSettings } from '../security/PasskeysSettings';
import { SessionsList } from '../security/SessionsList';
import { TwoFactorSettings } from '../security/TwoFactorSettings';
import { ACCOUNT_PATH } from '../paths';
import { parseSection, type Section } from '../sections';
import '../auth.css';


/**
 * What other features put into the cabinet. The app shell (src/app/ProfileRoute) fills it, so this
 * feature imports none of theirs: `quota` stands in the overview under the account, `overview`
 * follows it, `admin` joins the admin panel after the accounts, and a section's slot is that
 * section's whole view (it may be lazy: it shows once its code has arrived).
 */
export type ProfileSlots = Partial<Record<'quota' | 'overview' | 'messages' | 'friends' | 'admin', ReactNode>>;

/**
 * The personal cabinet: a section menu and the chosen view. Guests see the section's description
 * and the login/register form (?mode=register opens registration).
 */
export default function ProfilePage({ slots = {} }: { slots?: ProfileSlots }) {
  const { t } = useTranslation();
  const { user, isAdmin, loading, logout } = useAuth();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const section = parseSection(params.get('section'));

  const onLogout = () => {
    // The token and the user are gone at once, whatever the server answers.
    void logout();
    navigate(ACCOUNT_PATH);
  };

  let content;
  if (loading) {
    content = <p role="status">{t('auth.loading')}</p>;
  } else if (!user) {
    content = (
      <div className="profile-guest">
        <section className="profile-section" aria-labelledby="profile-guest-title">
          <h2 id="profile-guest-title" className="profile-section__title">
            {t(`auth.sections.${section}`)}
          </h2>
          <p>{t(`auth.descriptions.${section}`)}</p>
          <p className="profile-section__hint">{t('auth.guestPrompt')}</p>
        </section>
        <AuthForm key={params.get('mode') ?? 'login'} initialMode={params.get('mode') === 'register' ? 'register' : 'login'} />
      </div>
    );
  } else {
    content = sectionView(section, { user, isAdmin, onLogout, slots });
  }

  return (
    <Page title={t('profile')} className="profile">
      <div className="profile__layout">
        <ProfileSidebar current={section} isAdmin={isAdmin} />
        <div className="profile__content">{content}</div>
      </div>
    </Page>
  );
}

function sectionView(
  section: Section,
  {
    user,
    isAdmin,
    onLogout,
    slots,
  }: { user: NonNullable<ReturnType<typeof useAuth>['user']>; isAdmin: boolean; onLogout: () => void; slots: ProfileSlots },
) {
  switch (section) {
    case 'messages':
    case 'friends':
      return <Suspense fallback={null}>{slots[section]}</Suspense>;
    case 'notifications':
      return <NotificationList />;
    case 'chat':
      return <Navigate to="/chat" replace />;
    case 'admin':
      return isAdmin ? (
        <>
          <PortfolioEditorLink />
          <AdminPanel />
          <Suspense fallback={null}>{slots.admin}</Suspense>
          <InvitesPanel />
          <ModerationQueue />
          <AuditLog />
        </>
      ) : (
        <AccessDenied />
      );
    case 'settings':
      return (
        <>
          <AccountSettings />
          <ChangePasswordForm />
          <TwoFactorSettings />
          <PasskeysSettings />
          <SessionsList />
        </>
      );
    default:
      return (
        <>
          <ProfileOverview user={user} isAdmin={isAdmin} onLogout={onLogout} quota={slots.quota} />
          {slots.overview}
        </>
      );
  }
}
