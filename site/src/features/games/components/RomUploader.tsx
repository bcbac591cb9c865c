import { useEffect, useRef, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog';
import { ApiError } from '../../../lib/api';
import { useAddRom, type Console } from '../api';
import { GAMES_NS } from '../i18n';
import { UploadCancelled, UploadInterrupted, isNameClash, nextFreeName, pairUploads } from '../romUpload';
import { Select, TextField } from '../../../components/ui/Field';

interface Props {
  consoles: Console[];
}

/** The server's words for a refused file: the field's message, else the error's. */
function reason(err: unknown): string {
  if (!(err instanceof ApiError)) return err instanceof Error ? err.message : String(err);
  const fields = Object.values(err.data ?? {}) as Array<{ message?: string } | null>;
  return fields.find((f) => f && typeof f.message === 'string')?.message ?? err.message;
}

interface Row {
  /** Stable key: two rows may carry the same name. */
  id: number;
  /** The name it is (or was last) sent under. */
  name: string;
  rom: File;
  cover?: File;
  /** The console chosen when it was dropped ('' = by the extension). */
  consoleId: string;
  state: 'waiting' | 'uploading' | 'added' | 'replaced' | 'failed' | 'cancelled' | 'interrupted' | 'clash';
  sent?: number;
  total?: number;
  message?: string;
  /** After a name clash: the other name the admin may send it under. */
  draft?: string;
}

/** How one row is sent: under another name, or in place of the ROM of its name. */
interface SendOptions {
  fileName?: string;
  replace?: boolean;
}

/**
 * Admins drop ROMs (and covers of the same name) here; the console comes from the extension or the
 * choice. One ROM at a time goes through the resumable upload, with its progress and a Cancel. A
 * ROM whose file name the library already has stops at once with the choice to send it under
 * another name or to replace the game that is there.
 */
export function RomUploader({ consoles }: Props) {
  const { t } = useTranslation(GAMES_NS);
  const [consoleId, setConsoleId] = useState('');
  const [rows, setRows] = useState<Row[]>([]);
  const [over, setOver] = useState(false);
  /** The row whose replacement waits for the admin's confirmation. */
  const [confirming, setConfirming] = useState<Row | null>(null);
  const input = useRef<HTMLInputElement>(null);
  /** Cancels the ROM being sent. */
  const current = useRef<AbortController | null>(null);
  /** Sends run one after another, those of a new drop and the retries of a clash alike. */
  const queue = useRef<Promise<void>>(Promise.resolve());
  const nextId = useRef(0);
  const add = useAddRom();

  useEffect(() => () => current.current?.abort(), []);

  const update = (id: number, row: Partial<Row>) => setRows((r) => r.map((x) => (x.id === id ? { ...x, ...row } : x)));

  const send = async (row: Row, opts: SendOptions) => {
    const ctl = new AbortController();
    current.current = ctl;
    const name = opts.fileName ?? row.name;
    update(row.id, { name, state: 'uploading', sent: 0, total: row.rom.size, message: undefined });
    try {
      await add.mutateAsync({
        rom: row.rom,
        cover: row.cover,
        consoleId: row.consoleId,
        fileName: name === row.rom.name ? undefined : name,
        replace: opts.replace,
        signal: ctl.signal,
        onProgress: (sent, total) => update(row.id, { sent, total }),
      });
      update(row.id, { state: opts.replace ? 'replaced' : 'added' });
    } catch (err) {
      if (err instanceof UploadCancelled) update(row.id, { state: 'cancelled' });
      else if (err instanceof UploadInterrupted) update(row.id, { state: 'interrupted' });
      else if (isNameClash(err)) update(row.id, { state: 'clash', draft: nextFreeName(name) });
      else update(row.id, { state: 'failed', message: reason(err) });
    } finally {
      if (current.current === ctl) current.current = null;
    }
  };

  const enqueue = (row: Row, opts: SendOptions = {}) => {
    queue.current = queue.current.then(() => send(row, opts));
  };

  const upload = (files: File[]) => {
    const fresh = pairUploads(files).map(
      (p): Row => ({ id: nextId.current++, name: p.rom.name, rom: p.rom, cover: p.cover, consoleId, state: 'waiting' }),
    );
    setRows(fresh);
    for (const row of fresh) enqueue(row);
  };

  const retry = (row: Row, opts: SendOptions) => {
    update(row.id, { state: 'waiting', ...(opts.fileName ? { name: opts.fileName } : {}) });
    enqueue(row, opts);
  };

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    upload(Array.from(e.dataTransfer.files));
  };

  const label = (r: Row) => {
    switch (r.state) {
      case 'waiting':
        return t('upload.waiting', { name: r.name });
      case 'uploading':
        return t('upload.uploading', { name: r.name });
      case 'added':
        return t('upload.added', { name: r.name });
      case 'replaced':
        return t('upload.replaced', { name: r.name });
      case 'cancelled':
        return t('upload.cancelled', { name: r.name });
      case 'interrupted':
        return t('upload.interrupted', { name: r.name });
      case 'clash':
        return t('upload.exists', { name: r.name });
      default:
        return t('upload.failed', { name: r.name, message: r.message });
    }
  };

  return (
    <section className="games-upload" aria-label={t('upload.title')}>
      <div
        className={`games-upload__zone${over ? ' games-upload__zone--over' : ''}`}
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
      >
        <p>{t('upload.drop')}</p>
        <label className="games-upload__console">
          {t('upload.console')}{' '}
          <Select value={consoleId} onChange={(e) => setConsoleId(e.target.value)}>
            <option value="">{t('upload.fromExtension')}</option>
            {consoles.map((c) => (
              <option key={c.id} value={c.id} title={c.shortName}>
                {c.name}
              </option>
            ))}
          </Select>
        </label>{' '}
        <label className="btn">
          {t('upload.choose')}
          <input
            ref={input}
            type="file"
            multiple
            className="visually-hidden"
            onChange={(e) => {
              const files = Array.from(e.target.files ?? []);
              e.target.value = '';
              if (files.length) upload(files);
            }}
          />
        </label>
      </div>
      {rows.length ? (
        <ul className="games-upload__rows" aria-live="polite">
          {rows.map((r) => (
            <li key={r.id} className={`games-upload__row games-upload__row--${r.state}`}>
              <span>{label(r)}</span>
              {r.state === 'uploading' ? (
                <>
                  {' '}
                  <progress
                    className="games-upload__progress"
                    max={r.total || 1}
                    value={r.sent ?? 0}
                    aria-label={t('upload.progress', { name: r.name })}
                  />{' '}
                  <span className="games-upload__percent">{percent(r)}</span>{' '}
                  <button
                    type="button"
                    className="btn"
                    aria-label={t('upload.cancelOne', { name: r.name })}
                    onClick={() => current.current?.abort()}
                  >
                    {t('upload.cancel')}
                  </button>
                </>
              ) : null}
              {r.state === 'clash' ? (
                <div className="games-upload__clash">
                  <form
                    className="games-upload__rename"
                    onSubmit={(e) => {
                      e.preventDefault();
                      const next = (r.draft ?? '').trim();
                      if (next) retry(r, { fileName: next });
                    }}
                  >
                    <label>
                      {t('upload.newName')}{' '}
                      <TextField
                        value={r.draft ?? ''}
                        onChange={(e) => update(r.id, { draft: e.target.value })}
                        aria-label={t('upload.newNameOf', { name: r.name })}
                        spellCheck={false}
                        autoComplete="off"
                      />
                    </label>{' '}
                    <button type="submit" className="btn" disabled={!(r.draft ?? '').trim()}>
                      {t('upload.rename')}
                    </button>
                  </form>
                  <button type="button" className="btn" aria-label={t('upload.replaceOne', { name: r.name })} onClick={() => setConfirming(r)}>
                    {t('upload.replace')}
                  </button>
                </div>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      {confirming ? (
        <ConfirmDialog
          title={t('upload.replaceTitle')}
          text={t('upload.replaceText', { name: confirming.name })}
          confirmLabel={t('upload.replace')}
          cancelLabel={t('upload.cancel')}
          onCancel={() => setConfirming(null)}
          onConfirm={() => {
            const row = confirming;
            setConfirming(null);
            retry(row, { fileName: row.name, replace: true });
          }}
        />
      ) : null}
    </section>
  );
}

/** Sent of total as a whole percentage. */
function percent(r: Row): string {
  return r.total ? `${Math.floor(((r.sent ?? 0) * 100) / r.total)}%` : '0%';
}
