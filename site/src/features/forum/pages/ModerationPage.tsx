import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ModerationQueue } from '../../../components/moderation/ModerationQueue';
import { Page } from '../../../components/ui/Page';
import { useAuth } from '../../../lib/auth';
import { FORUM_NS } from '../i18n';
import '../forum.css';

/** /forum/moderation: the moderation queue (also in the profile's admin section). */
export default function ModerationPage() {
  const { t } = useTranslation(FORUM_NS);
  const { isAdmin, loading } = useAuth();
  return (
    <Page title={t('moderation')} className="forum">
      <Link to="/forum" className="forum-back">
        ← {t('back')}
      </Link>
      {isAdmin ? <ModerationQueue /> : loading ? null : <p>{t('adminOnly')}</p>}
    </Page>
  );
}
