import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/api';
import { toast } from '../../../lib/toast';
import { filePaths, previewFile, type FileItem } from '../api';
import { FILES_NS } from '../i18n';
import { Modal } from '../../../components/ui/Modal';

type Kind = 'image' | 'video' | 'audio' | 'pdf' | 'none';

export function previewKind(f: FileItem): Kind {
  if (f.mimetype === 'application/pdf') return 'pdf';
  if (f.type === 'image' || f.type === 'video' || f.type === 'audio') return f.type;
  return 'none';
}

/**
 * The preview overlay. Images and audio are fetched and shown from an object URL,
 * which closing revokes — an effect on purpose, not a query: the blob and its object URL live and
 * die with the overlay (the file page's DetailPreview, which stays, caches its blob in a query); video plays from the stream URL (the server answers its Range requests,
 * so seeking works without loading the whole file); PDF opens the stream URL in a frame.
 */
export function PreviewOverlay({ file, onClose }: { file: FileItem; onClose: () => void }) {
  const { t } = useTranslation(FILES_NS);
  const kind = previewKind(file);
  const [objectUrl, setObjectUrl] = useState<string | null>(null);
  const needsBlob = kind === 'image' || kind === 'audio';

  useEffect(() => {
    if (!needsBlob) return;
    const ctrl = new AbortController();
    let url: string | null = null;
    previewFile(file.id, ctrl.signal)
      .then((blob) => {
        if (ctrl.signal.aborted) return;
        // The server sends non-inline types (SVG) as opaque bytes; an <img> only draws them with
        // the recorded type, and an image element never runs a file's scripts.
        url = URL.createObjectURL(new Blob([blob], { type: file.mimetype }));
        setObjectUrl(url);
      })
      .catch((err: unknown) => {
        if (ctrl.signal.aborted) return;
        toast.error(t('toast.previewError', { message: errorMessage(err) }));
        onClose();
      });
    return () => {
      ctrl.abort();
      if (url) URL.revokeObjectURL(url);
    };
    // one fetch per opened file
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [file.id, needsBlob]);

  const stream = filePaths.stream(file.id);
  let body;
  if (kind === 'video') {
    body = <video className="files-preview__media" src={stream} controls autoPlay={false} preload="metadata" />;
  } else if (kind === 'pdf') {
    body = <iframe className="files-preview__pdf" src={stream} title={file.originalName} />;
  } else if (kind === 'none') {
    body = <p>{t('preview.none')}</p>;
  } else if (!objectUrl) {
    body = <p role="status">{t('preview.loading')}</p>;
  } else if (kind === 'image') {
    body = <img className="files-preview__media" src={objectUrl} alt={file.originalName} />;
  } else {
    body = <audio className="files-preview__audio" src={objectUrl} controls />;
  }

  return (
    <Modal title={t('preview.title', { name: file.originalName })} onClose={onClose} closeLabel={t('preview.close')} className="modal--wide">
      <div className="files-preview">{body}</div>
      {kind === 'pdf' ? (
        <p className="files-preview__open">
          <a href={stream} target="_blank" rel="noopener noreferrer">
            {t('preview.open')}
          </a>
        </p>
      ) : null}
    </Modal>
  );
}
