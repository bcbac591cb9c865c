import { useTranslation } from 'react-i18next';
import { Page } from '../../../components/ui/Page';

// Route placeholder from the shell: shows the section heading only until this feature is built.
export default function GamesPage() {
  const { t } = useTranslation();
  return <Page title={t('games')} />;
}
