import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog';
import { Select, TextField } from '../../../components/ui/Field';
import { errorMessage } from '../../../lib/api';
import { useToast } from '../../../lib/toast';
import {
  ARCHS,
  FILE_SYSTEMS,
  releaseForm,
  useAddImages,
  useAddRelease,
  useDeleteDownload,
  useDeleteImage,
  type Arch,
  type DownloadEntry,
  type FileSystem,
  type ReleaseFile,
} from '../api';
import { DOWNLOADS_NS } from '../i18n';
import { RESUMABLE_FROM, uploadResumably } from '../resumable';
import { EntryForm } from './EntryForm';

interface Picked {
  file: File;
  system: FileSystem;
  arch: Arch;
}

/** A guess of what a file is built for, from its name; the admin corrects it. */
function guess(file: File): Picked {
  const n = file.name.toLowerCase();
  const system: FileSystem = /\.(exe|msi)$/.test(n) ? 'windows' : /\.(dmg|pkg)$/.test(n) ? 'macos' : /\.apk$/.test(n) ? 'android' : /\.(deb|rpm|appimage)$/.test(n) ? 'linux' : 'any';
  const arch: Arch = /arm64|aarch64/.test(n) ? 'arm64' : /x86(?!_64)|32|i[3-6]86/.test(n) ? 'x86' : system === 'any' ? 'any' : 'x64';
  return { file, system, arch };
}

/** A new release: version, notes and files; large files go resumably first. */
function ReleaseForm({ entry }: { entry: DownloadEntry }) {
  const { t } = useTranslation(DOWNLOADS_NS);
  const toast = useToast();
  const add = useAddRelease(entry.slug);
  const [version, setVersion] = useState('');
  const [notes, setNotes] = useState('');
  const [files, setFiles] = useState<Picked[]>([]);
  const [progress, setProgress] = useState<string | null>(null);
  const busy = add.isPending || progress !== null;

  async function submit(e: FormEvent) {
    e.preventDefault();
    try {
      const parts: ReleaseFile[] = [];
      for (const p of files) {
        if (p.file.size >= RESUMABLE_FROM) {
          const id = await uploadResumably(p.file, (sent, total) =>
            setProgress(t('admin.uploading', { name: p.file.name, percent: Math.floor((sent / Math.max(total, 1)) * 100) })),
          );
          parts.push({ fileId: id, system: p.system, arch: p.arch });
        } else {
          parts.push({ file: p.file, system: p.system, arch: p.arch });
        }
      }
      setProgress(null);
      await add.mutateAsync(releaseForm(version, notes, parts));
      toast.success(t('admin.published'));
      setVersion('');
      setNotes('');
      setFiles([]);
    } catch (err) {
      setProgress(null);
      toast.error(t('admin.failed', { message: errorMessage(err) }));
    }
  }

  return (
    <form className="dl-admin__release" onSubmit={(e) => void submit(e)} aria-label={t('admin.release')}>
      <h3>{t('admin.release')}</h3>
      <label>
        {t('admin.version')}
        <TextField required value={version} onChange={(e) => setVersion(e.target.value)} />
      </label>
      <label>
        {t('admin.notes')}
        <textarea className="field" rows={3} value={notes} onChange={(e) => setNotes(e.target.value)} />
      </label>
      <label>
        {t('admin.addFiles')}
        <input type="file" multiple onChange={(e) => {
          const picked = [...(e.target.files ?? [])].map(guess);
          setFiles((old) => [...old, ...picked]);
          e.target.value = '';
        }} />
      </label>
      {files.length > 0 ? (
        <ul className="dl-admin__files">
          {files.map((p, i) => (
            <li key={`${p.file.name}-${i}`}>
              <span className="dl-admin__fname">{p.file.name}</span>
              <Select aria-label={t('admin.fileSystem', { name: p.file.name })} value={p.system}
                onChange={(e) => setFiles((old) => old.map((x, j) => (j === i ? { ...x, system: e.target.value as FileSystem } : x)))}>
                {FILE_SYSTEMS.map((s) => <option key={s} value={s}>{t(`fileSystems.${s}`)}</option>)}
              </Select>
              <Select aria-label={t('admin.fileArch', { name: p.file.name })} value={p.arch}
                onChange={(e) => setFiles((old) => old.map((x, j) => (j === i ? { ...x, arch: e.target.value as Arch } : x)))}>
                {ARCHS.map((a) => <option key={a} value={a}>{t(`archs.${a}`)}</option>)}
              </Select>
              <button type="button" className="btn btn--small" onClick={() => setFiles((old) => old.filter((_, j) => j !== i))}>
                {t('admin.removeFile', { name: p.file.name })}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {progress ? <p role="status">{progress}</p> : null}
      <button type="submit" className="btn btn--primary" disabled={busy || files.length === 0}>
        {t('admin.publish')}
      </button>
    </form>
  );
}

/** The icon and the screenshots: add, replace, remove. */
function ImagesForm({ entry }: { entry: DownloadEntry }) {
  const { t } = useTranslation(DOWNLOADS_NS);
  const toast = useToast();
  const add = useAddImages(entry.slug);
  const del = useDeleteImage(entry.slug);
  const send = (kind: 'icon' | 'screenshot', list: FileList | null) => {
    const files = [...(list ?? [])];
    if (files.length === 0) return;
    add.mutate({ kind, files }, {
      onSuccess: () => toast.success(t('admin.imagesSaved')),
      onError: (err) => toast.error(t('admin.failed', { message: errorMessage(err) })),
    });
  };
  const images = [...(entry.icon ? [entry.icon] : []), ...entry.screenshots];
  return (
    <section className="dl-admin__images" aria-label={t('admin.images')}>
      <h3>{t('admin.images')}</h3>
      <label>
        {t('admin.setIcon')}
        <input type="file" accept="image/png,image/jpeg,image/webp,image/gif" onChange={(e) => { send('icon', e.target.files); e.target.value = ''; }} />
      </label>
      <label>
        {t('admin.addScreenshots')}
        <input type="file" multiple accept="image/png,image/jpeg,image/webp,image/gif" onChange={(e) => { send('screenshot', e.target.files); e.target.value = ''; }} />
      </label>
      {images.length > 0 ? (
        <ul className="dl-admin__thumbs">
          {images.map((img) => (
            <li key={img.id}>
              <img src={img.url} alt="" width={64} height={40} />
              <button type="button" className="btn btn--small" disabled={del.isPending} onClick={() => del.mutate(img.id)}>
                {t('admin.removeImage', { name: img.name })}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

/** An admin's tools on an entry's page: edit, delete, new release, images. */
export function AdminTools({ entry }: { entry: DownloadEntry }) {
  const { t } = useTranslation(DOWNLOADS_NS);
  const toast = useToast();
  const navigate = useNavigate();
  const del = useDeleteDownload();
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  return (
    <section className="dl-admin" aria-label={t('admin.edit')}>
      <div className="dl-admin__actions">
        <button type="button" className="btn" onClick={() => setEditing(true)}>
          {t('admin.edit')}
        </button>
        <button type="button" className="btn btn--danger" onClick={() => setConfirming(true)}>
          {t('admin.delete')}
        </button>
      </div>
      <ReleaseForm entry={entry} />
      <ImagesForm entry={entry} />
      {editing ? <EntryForm section={entry.section} entry={entry} onClose={() => setEditing(false)} onSaved={() => setEditing(false)} /> : null}
      {confirming ? (
        <ConfirmDialog
          title={t('admin.deleteTitle', { name: entry.name })}
          text={t('admin.deleteText')}
          confirmLabel={t('admin.delete')}
          cancelLabel={t('admin.cancel')}
          busy={del.isPending}
          onCancel={() => setConfirming(false)}
          onConfirm={() =>
            del.mutate(entry.slug, {
              onSuccess: () => {
                toast.success(t('admin.deleted'));
                void navigate(`/${entry.section}`);
              },
              onError: (err) => toast.error(t('admin.failed', { message: errorMessage(err) })),
            })
          }
        />
      ) : null}
    </section>
  );
}
