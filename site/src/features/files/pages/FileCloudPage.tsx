import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog';
import { Page } from '../../../components/ui/Page';
import { errorMessage } from '../../../lib/api';
import { useAuth } from '../../../lib/auth';
import { toast } from '../../../lib/toast';
import {
  downloadFile,
  downloadZip,
  saveBlob,
  useDeleteFile,
  useFileList,
  useRefreshFileList,
  type FileGroups,
  type FileItem,
  type Group,
} from '../api';
import { FileTabs } from '../components/FileTabs';
import { SelectionBar } from '../components/SelectionBar';
import { PreviewOverlay } from '../components/PreviewOverlay';
import { Uploader } from '../components/Uploader';
import { FILES_NS } from '../i18n';
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
 * /filecloud: the uploader (a sign-in prompt for guests), tabbed lists, and per file a
 * preview, copy link, download with progress, and — for admins and the file's own uploader —
 * delete after a confirmation. A signed-in user can list only their own files.
 */
export default function FileCloudPage() {
  const { t } = useTranslation(FILES_NS);
  const { user, isAdmin, loading: authLoading } = useAuth();
  const [mine, setMine] = useState(false);
  const list = useFileList(mine);
  const groups = list.data ?? EMPTY;
  const [active, setActive] = useState<Group>('images');
  const [preview, setPreview] = useState<FileItem | null>(null);
  const [toDelete, setToDelete] = useState<FileItem | null>(null);
  const downloads = useDownloads();
  const refreshList = useRefreshFileList();
  const remove = useDeleteFile();
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [zipping, setZipping] = useState(false);

  const onSelect = useCallback((f: FileItem, on: boolean) => {
    setSelected((prev) => {
      const next = new Set(prev);
      if (on) next.add(f.id);
      else next.delete(f.id);
      return next;
    });
  }, []);

  const onDownloadSelected = async () => {
    setZipping(true);
    try {
      saveBlob(await downloadZip([...selected]), 'files.zip');
      toast.success(t('select.zipped'));
    } catch (err) {
      toast.error(t('select.zipError', { message: errorMessage(err) }));
    } finally {
      setZipping(false);
    }
  };

  // A failed load says so once per failure (the list keeps what it had).
  const loadError = list.error;
  useEffect(() => {
    if (loadError) toast.error(t('toast.loadError', { message: errorMessage(loadError) }));
  }, [loadError, t]);

  const onUploaded = useCallback(
    (files: FileItem[]) => {
      if (files[0]) setActive(GROUP_OF[files[0].type] ?? 'other');
      refreshList();
    },
    [refreshList],
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

  const confirmDelete = () => {
    if (!toDelete) return;
    remove.mutate(toDelete.id, {
      onSuccess: () => {
        toast.success(t('toast.deleted'));
        setToDelete(null);
      },
      onError: (err) => toast.error(t('toast.deleteError', { message: errorMessage(err) })),
    });
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
      {user ? (
        <label className="files-mine">
          <input type="checkbox" checked={mine} onChange={(e) => setMine(e.target.checked)} /> {t('list.mine')}
        </label>
      ) : null}
      <SelectionBar count={selected.size} busy={zipping} onDownload={() => void onDownloadSelected()} onClear={() => setSelected(new Set())} />
      {list.isPending ? (
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
          selected={selected}
          onSelect={onSelect}
        />
      )}
      {preview ? <PreviewOverlay file={preview} onClose={() => setPreview(null)} /> : null}
      {toDelete ? (
        <ConfirmDialog
          title={t('confirm.title')}
          text={t('confirm.text', { name: toDelete.originalName })}
          confirmLabel={t('confirm.confirm')}
          cancelLabel={t('confirm.cancel')}
          busy={remove.isPending}
          onConfirm={confirmDelete}
          onCancel={() => setToDelete(null)}
        />
      ) : null}
    </Page>
  );
}
