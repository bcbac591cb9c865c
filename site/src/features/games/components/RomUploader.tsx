import { useEffect, useRef, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api';
import { useAddRom, type Console } from '../api';
import { GAMES_NS } from '../i18n';
import { UploadCancelled, UploadInterrupted, pairUploads } from '../romUpload';
import { Select } from '../../../components/ui/Field';

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
  name: string;
  state: 'waiting' | 'uploading' | 'added' | 'failed' | 'cancelled' | 'interrupted';
  sent?: number;
  total?: number;
  message?: string;
}

/**
 * Admins drop ROMs (and covers of the same name) here; the console comes from the extension or the
 * choice. One ROM at a time goes through the resumable upload, with its progress and a Cancel.
 */
export function RomUploader({ consoles }: Props) {
  const { t } = useTranslation(GAMES_NS);
  const [consoleId, setConsoleId] = useState('');
  const [rows, setRows] = useState<Row[]>([]);
  const [over, setOver] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  /** Cancels the ROM being sent. */
  const current = useRef<AbortController | null>(null);
  const add = useAddRom();

  useEffect(() => () => current.current?.abort(), []);

  const upload = async (files: File[]) => {
    const pairs = pairUploads(files);
    setRows(pairs.map((p) => ({ name: p.rom.name, state: 'waiting' })));
    const update = (i: number, row: Partial<Row>) => setRows((r) => r.map((x, j) => (j === i ? { ...x, ...row } : x)));
    for (const [i, p] of pairs.entries()) {
      const ctl = new AbortController();
      current.current = ctl;
      update(i, { state: 'uploading', sent: 0, total: p.rom.size });
      try {
        await add.mutateAsync({
          rom: p.rom,
          cover: p.cover,
          consoleId,
          signal: ctl.signal,
          onProgress: (sent, total) => update(i, { sent, total }),
        });
        update(i, { state: 'added' });
      } catch (err) {
        if (err instanceof UploadCancelled) update(i, { state: 'cancelled' });
        else if (err instanceof UploadInterrupted) update(i, { state: 'interrupted' });
        else update(i, { state: 'failed', message: reason(err) });
      } finally {
        if (current.current === ctl) current.current = null;
      }
    }
  };

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    void upload(Array.from(e.dataTransfer.files));
  };

  const label = (r: Row) => {
    switch (r.state) {
      case 'waiting':
        return t('upload.waiting', { name: r.name });
      case 'uploading':
        return t('upload.uploading', { name: r.name });
      case 'added':
        return t('upload.added', { name: r.name });
      case 'cancelled':
        return t('upload.cancelled', { name: r.name });
      case 'interrupted':
        return t('upload.interrupted', { name: r.name });
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
        <label>
          {t('upload.console')}{' '}
          <Select value={consoleId} onChange={(e) => setConsoleId(e.target.value)}>
            <option value="">{t('upload.fromExtension')}</option>
            {consoles.map((c) => (
              <option key={c.id} value={c.id}>
                {c.shortName} — {c.name}
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
              if (files.length) void upload(files);
            }}
          />
        </label>
      </div>
      {rows.length ? (
        <ul className="games-upload__rows" aria-live="polite">
          {rows.map((r) => (
            <li key={r.name} className={`games-upload__row games-upload__row--${r.state}`}>
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
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

/** Sent of total as a whole percentage. */
function percent(r: Row): string {
  return r.total ? `${Math.floor(((r.sent ?? 0) * 100) / r.total)}%` : '0%';
}
