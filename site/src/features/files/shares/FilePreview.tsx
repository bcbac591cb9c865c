import { useTranslation } from 'react-i18next';
import { inlineKind } from './api';
import { SHARES_NS } from './i18n';

/**
 * An inline preview of a file the browser may show (images but SVG, video, audio, PDF — the
 * server's inline allow-list): the element plays or draws `src`, the file's inline URL (the
 * stream route, a share link's ?inline=1, or an object URL). Anything else says there is none.
 */
export function FilePreview({ src, mimetype, name }: { src: string | null; mimetype: string; name: string }) {
  const { t } = useTranslation(SHARES_NS);
  const kind = inlineKind(mimetype);
  let body;
  if (!kind) {
    body = <p className="file-preview__none">{t('preview.none')}</p>;
  } else if (!src) {
    body = <p role="status">{t('preview.loading')}</p>;
  } else if (kind === 'image') {
    body = <img className="file-preview__media" src={src} alt={name} />;
  } else if (kind === 'video') {
    body = <video className="file-preview__media" src={src} controls preload="metadata" aria-label={name} />;
  } else if (kind === 'audio') {
    body = <audio className="file-preview__audio" src={src} controls preload="metadata" aria-label={name} />;
  } else {
    body = <iframe className="file-preview__pdf" src={src} title={name} />;
  }
  return (
    <section className="file-preview" aria-label={t('preview.title')} data-kind={kind ?? 'none'}>
      {body}
    </section>
  );
}
