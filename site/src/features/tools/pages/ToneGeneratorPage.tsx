import { useTranslation } from 'react-i18next';
import { Page } from '../../../components/ui/Page';
import { TONE_NS } from '../tone/i18n';
import { ToneGenerator } from '../tone/ToneGenerator';

/** /tools/tone_generator. */
export default function ToneGeneratorPage() {
  const { t } = useTranslation(TONE_NS);
  return (
    <Page title={t('title')} lead={t('lead')} className="tone-page">
      <ToneGenerator />
    </Page>
  );
}
