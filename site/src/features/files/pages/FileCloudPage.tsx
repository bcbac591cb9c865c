import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog';
import { Page } from '../../../components/ui/Page';
import { errorMessage } from '../../../lib/api';
import { useAuth } from '../../../lib/auth';
import { toast } from '../../../lib/toast';
import { deleteFile, downloadFile, listFiles, saveBlob, useRefreshQuota, type FileGroups, type FileItem, type Group } from '../api';
import { FileTabs } from '../components/FileTabs';
import { PreviewOverlay } from '../components/PreviewOverlay';
import { Uploader } from '../components/Uploader';
import { FILES_NS } from '../i18n';
import { THUMB_POLL_MS, awaitingThumbnail } from '../thumbnails';
import { useDownloads } from '../useDownloads';
import '../files.css';

const EMPTY: FileGroups = { images: [], videos: [], audio: [], documents: [], other: [] };

const GROUP_OF: Record<FileItem['type'], Group> = {
  image: 'images',
  video: 'videos',
  audio: 'audio',
  document: 'documents',
  other: 'other',
};

/**
 * /filecloud (spec §2): the uploader (a sign-in prompt for guests), tabbed lists, and per file a
 * preview, copy link, download with progress, and — for admins — delete after a confirmation.
 */
export default function FileCloudPage() {
  const { t } = useTranslation(FILES_NS);
  const { user, isAdmin, loading: authLoading } = useAuth();
  const [groups, setGroups] = useState<FileGroups>(EMPTY);
  const [loading, setLoading] = useState(true);
  const [version, setVersion] = useState(0);
  const [active, setActive] = useState<Group>('images');
  const [preview, setPreview] = useState<FileItem | null>(null);
  const [toDelete, setToDelete] = useState<FileItem | null>(null);
  const [deleting, setDeleting] = useState(false);
  const downloads = useDownloads();
  const refreshQuota = useRefreshQuota();

  useEffect(() => {
    const ctrl = new AbortController();
    listFiles(ctrl.signal)
      .then((g) => {
        if (!ctrl.signal.aborted) setGroups(g);
      })
      .catch((err: unknown) => {
        if (ctrl.signal.aborted) return;
        toast.error(t('toast.loadError', { message: errorMessage(err) }));
      })
      .finally(() => {
        if (!ctrl.signal.aborted) setLoading(false);
      });
    return () => ctrl.abort();
  }, [version, t]);

  const reload = useCallback(() => setVersion((v) => v + 1), []);

  // Thumbnails are made in the background after an upload: while a fresh image has none yet,
  // the list is asked again (awaitingThumbnail bounds it to a minute after the upload).
  useEffect(() => {
    if (!awaitingThumbnail(groups)) return;
    const timer = setTimeout(reload, THUMB_POLL_MS);
    return () => clearTimeout(timer);
  }, [groups, reload]);

  const onUploaded = useCallback(
    (files: FileItem[]) => {
      if (files[0]) setActive(GROUP_OF[files[0].type] ?? 'other');
      reload();
    },
    [reload],
  );

  const onDownload = (f: FileItem) => {
    void downloads
      .run(f.id, async (onPercent) => {
        try {
          const blob = await downloadFile(f.id, (p) => onPercent(p.percent));
          saveBlob(blob, f.originalName);
        } catch (err) {
          toast.error(t('toast.downloadError', { message: errorMessage(err) }));
          throw err;
        }
      })
      .then((ok) => {
        if (ok) toast.success(t('toast.downloaded'));
      });
  };

  const confirmDelete = async () => {
    if (!toDelete) return;
    setDeleting(true);
    try {
      await deleteFile(toDelete.id);
      toast.success(t('toast.deleted'));
      setToDelete(null);
      reload();
      refreshQuota();
    } catch (err) {
      toast.error(t('toast.deleteError', { message: errorMessage(err) }));
    } finally {
      setDeleting(false);
    }
  };

  return (
    <Page title={t('title')} lead={t('lead')} className="files-page">
      {user ? (
        <Uploader onUploaded={onUploaded} />
      ) : authLoading ? null : (
        <section className="files-guest">
          <p>{t('uploader.guest')}</p>
          <Link className="btn btn--primary" to="/profile">
            {t('uploader.signIn')}
          </Link>
        </section>
      )}
      {loading ? (
        <p role="status" className="files-loading">
          {t('list.loading')}
        </p>
      ) : (
        <FileTabs
          groups={groups}
          active={active}
          onActivate={setActive}
          isAdmin={isAdmin}
          downloads={downloads.states}
          onPreview={setPreview}
          onDownload={onDownload}
          onDelete={setToDelete}
        />
      )}
      {preview ? <PreviewOverlay file={preview} onClose={() => setPreview(null)} /> : null}
      {toDelete ? (
        <ConfirmDialog
          title={t('confirm.title')}
          text={t('confirm.text', { name: toDelete.originalName })}
          confirmLabel={t('confirm.confirm')}
          cancelLabel={t('confirm.cancel')}
          busy={deleting}
          onConfirm={confirmDelete}
          onCancel={() => setToDelete(null)}
        />
      ) : null}
    </Page>
  );
}
