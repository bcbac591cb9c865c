import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { Page } from '../../../components/ui/Page';
import { useAuth } from '../../../lib/auth';
import { AccessDenied, AdminPanel } from '../components/AdminPanel';
import { AuthForm } from '../components/AuthForm';
import { ChangePasswordForm } from '../components/ChangePasswordForm';
import { ProfileOverview } from '../components/ProfileOverview';
import { ProfileSidebar } from '../components/ProfileSidebar';
import { ChatPlaceholder, InDevelopment } from '../components/SectionPlaceholder';
import { AuditLog } from '../security/AuditLog';
import { InvitesPanel } from '../security/InvitesPanel';
import { PasskeysSettings } from '../security/PasskeysSettings';
import { SessionsList } from '../security/SessionsList';
import { TwoFactorSettings } from '../security/TwoFactorSettings';
import { MyShares } from '../../files/shares/MyShares';
import { ACCOUNT_PATH } from '../paths';
import { parseSection, type Section } from '../sections';
import '../auth.css';


/**
 * The personal cabinet (spec §2 "Profile page"): a section menu and the chosen view. Guests see
 * the section's description and the login/register form (?mode=register opens registration).
 */
export default function ProfilePage() {
  const { t } = useTranslation();
  const { user, isAdmin, loading, logout } = useAuth();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const section = parseSection(params.get('section'));

  const onLogout = () => {
    // The token and the user are gone at once, whatever the server answers (spec §4).
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
    content = sectionView(section, { user, isAdmin, onLogout });
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
  { user, isAdmin, onLogout }: { user: NonNullable<ReturnType<typeof useAuth>['user']>; isAdmin: boolean; onLogout: () => void },
) {
  switch (section) {
    case 'messages':
    case 'friends':
      return <InDevelopment section={section} />;
    case 'chat':
      return <ChatPlaceholder />;
    case 'admin':
      return isAdmin ? (
        <>
          <AdminPanel />
          <InvitesPanel />
          <AuditLog />
        </>
      ) : (
        <AccessDenied />
      );
    case 'settings':
      return (
        <>
          <ChangePasswordForm />
          <TwoFactorSettings />
          <PasskeysSettings />
          <SessionsList />
        </>
      );
    default:
      return (
        <>
          <ProfileOverview user={user} isAdmin={isAdmin} onLogout={onLogout} />
          <MyShares />
        </>
      );
  }
}
