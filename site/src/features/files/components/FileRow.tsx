import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { FileItem } from '../api';
import { formatMB } from '../format';
import { FILES_NS } from '../i18n';
import type { DownloadState } from '../useDownloads';
import { CopyLinkButton } from './CopyLinkButton';
import { FileThumb } from './FileThumb';
import { PrivateBadge } from '../shares/PrivateBadge';

interface Props {
  file: FileItem;
  isAdmin: boolean;
  download?: DownloadState;
  onPreview: (f: FileItem) => void;
  onDownload: (f: FileItem) => void;
  onDelete: (f: FileItem) => void;
  /** Whether the file is chosen for "download selected"; undefined: no checkbox. */
  selected?: boolean;
  onSelect?: (f: FileItem, on: boolean) => void;
}

/** Whether the preview overlay can show this file (image, video, audio, PDF). */
export function canPreview(f: FileItem): boolean {
  return f.type === 'image' || f.type === 'video' || f.type === 'audio' || f.mimetype === 'application/pdf';
}

export function fileLink(id: number): string {
  return `${window.location.origin}/filecloud/${id}`;
}

/**
 * One file: its thumbnail or type icon, its name (a link to its page), size in MB and actions;
 * delete for admins and for the file's own uploader.
 */
export function FileRow({ file, isAdmin, download, onPreview, onDownload, onDelete, selected, onSelect }: Props) {
  const { t, i18n } = useTranslation(FILES_NS);
  const busy = download?.status === 'starting' || download?.status === 'downloading';
  return (
    <li className="files-row" data-testid={`file-${file.id}`}>
      {onSelect ? (
        <input
          type="checkbox"
          className="files-row__select"
          checked={!!selected}
          onChange={(e) => onSelect(file, e.target.checked)}
          aria-label={t('select.label', { name: file.originalName })}
        />
      ) : null}
      <FileThumb file={file} />
      <div className="files-row__info">
        <Link className="files-row__name" to={`/filecloud/${file.id}`} title={t('list.details', { name: file.originalName })}>
          {file.originalName}
        </Link>
        <PrivateBadge file={file} />
        <span className="files-row__size">{formatMB(file.size, { kb: t('list.kb'), mb: t('list.mb') }, i18n.language)}</span>
      </div>
      <div className="files-row__actions" role="group" aria-label={t('actions.label', { name: file.originalName })}>
        {canPreview(file) ? (
          <button type="button" className="btn files-action" onClick={() => onPreview(file)}>
            {t('actions.preview')}
          </button>
        ) : null}
        <CopyLinkButton url={fileLink(file.id)} name={file.originalName} />
        <button type="button" className="btn files-action" onClick={() => onDownload(file)} disabled={busy}>
          {t('actions.download')}
        </button>
        {download ? (
          <span className={`files-dl files-dl--${download.status}`} role="status" data-testid={`download-status-${file.id}`}>
            {t(`status.${download.status}`, { percent: download.percent })}
            {download.status === 'downloading' ? (
              <progress max={100} value={download.percent} aria-hidden="true" />
            ) : null}
          </span>
        ) : null}
        {isAdmin || file.mine ? (
          <button type="button" className="btn btn--danger files-action" onClick={() => onDelete(file)}>
            {t('actions.delete')}
          </button>
        ) : null}
      </div>
    </li>
  );
}
