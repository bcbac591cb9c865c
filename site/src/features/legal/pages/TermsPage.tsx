import { terms } from '../content';
import { LegalDocumentView } from '../LegalDocumentView';

export default function TermsPage() {
  return <LegalDocumentView docs={terms} />;
}
