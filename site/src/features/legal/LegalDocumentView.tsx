import { useTranslation } from 'react-i18next';
import { Page } from '../../components/ui/Page';
import { isSupportedLanguage } from '../../lib/languageDetection';
import type { LegalDocument } from './content';
import './legal.css';

export function LegalDocumentView({ docs }: { docs: Record<string, LegalDocument> }) {
  const { i18n } = useTranslation();
  const lang = isSupportedLanguage(i18n.language) ? i18n.language : 'en';
  const doc = docs[lang] ?? docs.en;
  return (
    <Page title={doc.title} className="legal">
      <p className="legal__intro">{doc.intro}</p>
      {doc.sections.map((s) => (
        <section key={s.heading} className="legal__section">
          <h2>{s.heading}</h2>
          {s.paragraphs.map((p) => (
            <p key={p.slice(0, 40)}>{p}</p>
          ))}
        </section>
      ))}
    </Page>
  );
}
