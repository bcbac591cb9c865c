import { privacy } from '../content';
import { LegalDocumentView } from '../LegalDocumentView';

export default function PrivacyPage() {
  return <LegalDocumentView docs={privacy} />;
}
