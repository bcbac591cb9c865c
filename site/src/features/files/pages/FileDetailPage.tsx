import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { Page } from '../../../components/ui/Page';
import { ApiError } from '../../../lib/api';
import { downloadFile, saveBlob, useFileDetail, useSetFileDetail } from '../api';
import { formatDecimal, type DecimalUnits } from '../format';
import { FILES_NS } from '../i18n';
import { DetailPreview } from '../shares/DetailPreview';
import { FileSharing } from '../shares/FileSharing';
import '../files.css';

/** The detail page's message for a failed load. */
export function detailErrorKey(err: unknown): { key: string; status?: number } {
  if (err instanceof ApiError) {
    if (err.status === 404 || err.status === 400) return { key: 'detail.notFound' };
    if (err.message === 'Server returned non-JSON response') return { key: 'detail.nonJson' };
    if (err.status > 0) return { key: 'detail.httpError', status: err.status };
  }
  return { key: 'detail.loadFailed' };
}

/** /filecloud/:fileId: name, size, type, upload time, download and back. */
export default function FileDetailPage() {
  const { t, i18n } = useTranslation(FILES_NS);
  const { fileId = '' } = useParams();
  const detail = useFileDetail(fileId);
  const setFile = useSetFileDetail(fileId);
  const [downloading, setDownloading] = useState(false);
  const [downloadError, setDownloadError] = useState<string | null>(null);

  // Ids are positive numbers; anything else cannot name a file. A body that is not a file is a
  // failed load, not a page of blanks.
  const data = detail.data;
  const file = data && typeof data === 'object' && typeof data.originalName === 'string' ? data : null;
  let error: string | null = null;
  if (!/^[1-9]\d*$/.test(fileId)) {
    error = t('detail.notFound');
  } else if (detail.error) {
    const { key, status } = detailErrorKey(detail.error);
    error = t(key, { status });
  } else if (data && !file) {
    error = t('detail.loadFailed');
  }

  const units = t('detail.units', { returnObjects: true }) as DecimalUnits;

  const download = async () => {
    if (!file) return;
    setDownloading(true);
    setDownloadError(null);
    try {
      saveBlob(await downloadFile(file.id), file.originalName);
    } catch {
      setDownloadError(t('detail.downloadFailed'));
    } finally {
      setDownloading(false);
    }
  };

  return (
    <Page title={file?.originalName ?? t('detail.title')} className="files-page files-detail">
      {error ? (
        <p role="alert" className="files-detail__error">
          {error}
        </p>
      ) : !file ? (
        <p role="status">{t('detail.loading')}</p>
      ) : (
        <>
          <dl className="files-detail__facts">
            <dt>{t('detail.name')}</dt>
            <dd>{file.originalName}</dd>
            <dt>{t('detail.size')}</dt>
            <dd data-testid="file-size">
              {formatDecimal(file.size, units, i18n.language)}
              {file.size >= 1000 ? ` (${file.size.toLocaleString(i18n.language)} ${units.bytes})` : ''}
            </dd>
            <dt>{t('detail.type')}</dt>
            <dd>{file.mimetype}</dd>
            <dt>{t('detail.uploaded')}</dt>
            <dd>
              <time dateTime={file.uploadedAt}>{new Date(file.uploadedAt).toLocaleString(i18n.language)}</time>
            </dd>
          </dl>
          {/* Back sits beside Download, above the preview and the sharing panel: those arrive
              later and would move a link below them while it is being reached. */}
          <div className="files-detail__actions">
            <button type="button" className="btn btn--primary" onClick={download} disabled={downloading}>
              {t('detail.download')}
            </button>
            <Link className="btn" to="/filecloud">
              {t('detail.back')}
            </Link>
          </div>
          {downloadError ? (
            <p role="alert" className="files-detail__error">
              {downloadError}
            </p>
          ) : null}
          <DetailPreview file={file} />
          <FileSharing file={file} onChange={setFile} />
        </>
      )}
      {file ? null : (
        <p className="files-detail__back">
          <Link className="btn" to="/filecloud">
            {t('detail.back')}
          </Link>
        </p>
      )}
    </Page>
  );
}
