import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/api';
import { useAuth } from '../../../lib/auth';
import { toast } from '../../../lib/toast';
import type { FileDetail } from '../api';
import { useCreateShare, useFileShares, useRenameFile, useSetVisibility, type Visibility } from './api';
import { SHARES_NS } from './i18n';
import { ShareList } from './ShareList';
import { Select, TextField } from '../../../components/ui/Field';

const EXPIRIES = ['1h', '1d', '7d', '30d'] as const;

/**
 * The file page's part for its uploader and admins: who sees the file (public or private) and
 * its share links. Whether the caller may manage the file is the server's answer to the links
 * request (403 for anyone else), so nothing of this shows to them.
 */
export function FileSharing({ file, onChange }: { file: FileDetail; onChange: (f: FileDetail) => void }) {
  const { t } = useTranslation(SHARES_NS);
  // A guest may never manage a file: no request (and no 401 in the console) for them.
  const { user } = useAuth();
  const shares = useFileShares(file.id, user !== null);
  const setVisibility = useSetVisibility(file.id);
  const create = useCreateShare(file.id);
  const rename = useRenameFile(file.id);
  const [name, setName] = useState(file.originalName);
  const [expiresIn, setExpiresIn] = useState<string>('7d');
  const [password, setPassword] = useState('');
  const [maxDownloads, setMaxDownloads] = useState('');

  if (!shares.isSuccess) return null;
  // The choice shows at once; the file follows when the server has it.
  const visibility: Visibility = (setVisibility.isPending ? setVisibility.variables : undefined) ?? file.visibility ?? 'public';

  const changeVisibility = (v: Visibility) => {
    setVisibility.mutate(v, {
      onSuccess: (f) => {
        onChange(f);
        toast.success(t('visibility.saved'));
      },
      onError: () => toast.error(t('visibility.failed')),
    });
  };

  const submitName = (e: FormEvent) => {
    e.preventDefault();
    if (name.trim() === '' || name === file.originalName) return;
    rename.mutate(name, {
      onSuccess: (f) => {
        onChange(f);
        setName(f.originalName);
        toast.success(t('rename.saved'));
      },
      onError: (err) => toast.error(t('rename.failed', { message: errorMessage(err) })),
    });
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const max = Number.parseInt(maxDownloads, 10);
    create.mutate(
      { expiresIn, ...(password ? { password } : {}), ...(max > 0 ? { maxDownloads: max } : {}) },
      {
        onSuccess: () => {
          setPassword('');
          setMaxDownloads('');
          toast.success(t('panel.created'));
        },
        onError: (err) => toast.error(t('panel.createFailed', { message: errorMessage(err) })),
      },
    );
  };

  return (
    <>
      <form className="file-rename" onSubmit={submitName}>
        <label>
          {t('rename.label')}
          <input
            className="field-input"
            value={name}
            maxLength={255}
            required
            onChange={(e) => setName(e.target.value)}
          />
        </label>
        <button
          type="submit"
          className="btn"
          disabled={rename.isPending || name.trim() === '' || name === file.originalName}
        >
          {t('rename.save')}
        </button>
      </form>
      <fieldset className="file-visibility" disabled={setVisibility.isPending}>
        <legend>{t('visibility.title')}</legend>
        {(['public', 'private'] as const).map((v) => (
          <label key={v}>
            <input
              type="radio"
              name="visibility"
              value={v}
              checked={visibility === v}
              onChange={() => changeVisibility(v)}
            />{' '}
            {t(`visibility.${v}`)}
          </label>
        ))}
      </fieldset>
      <section className="file-shares" aria-labelledby="file-shares-title">
        <h2 id="file-shares-title">{t('panel.title')}</h2>
        <p className="file-shares__hint">{t('panel.hint')}</p>
        <form className="file-shares__form" onSubmit={submit}>
          <label>
            {t('panel.expires')}
            <Select value={expiresIn} onChange={(e) => setExpiresIn(e.target.value)}>
              {EXPIRIES.map((x) => (
                <option key={x} value={x}>
                  {t(`panel.expiry.${x}`)}
                </option>
              ))}
            </Select>
          </label>
          <label>
            {t('panel.password')}
            <TextField type="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} />
          </label>
          <label>
            {t('panel.maxDownloads')}
            <TextField type="number" min={1} inputMode="numeric" value={maxDownloads} onChange={(e) => setMaxDownloads(e.target.value)} />
          </label>
          <button type="submit" className="btn btn--primary" disabled={create.isPending}>
            {t('panel.create')}
          </button>
        </form>
        {shares.data.length === 0 ? <p>{t('panel.empty')}</p> : <ShareList links={shares.data} />}
      </section>
    </>
  );
}
