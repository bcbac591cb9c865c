import { useRef, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api';
import { useAddRom, type Console } from '../api';
import { GAMES_NS } from '../i18n';
import { pairUploads } from '../romUpload';

interface Props {
  consoles: Console[];
}

/** The server's words for a refused file: the field's message, else the error's. */
function reason(err: unknown): string {
  if (!(err instanceof ApiError)) return String(err);
  const fields = Object.values(err.data ?? {}) as Array<{ message?: string } | null>;
  return fields.find((f) => f && typeof f.message === 'string')?.message ?? err.message;
}

interface Row {
  name: string;
  state: 'uploading' | 'added' | 'failed';
  message?: string;
}

/** Admins drop ROMs (and covers of the same name) here; the console comes from the extension or the choice. */
export function RomUploader({ consoles }: Props) {
  const { t } = useTranslation(GAMES_NS);
  const [consoleId, setConsoleId] = useState('');
  const [rows, setRows] = useState<Row[]>([]);
  const [over, setOver] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const add = useAddRom();

  const upload = async (files: File[]) => {
    const pairs = pairUploads(files);
    setRows(pairs.map((p) => ({ name: p.rom.name, state: 'uploading' })));
    for (const [i, p] of pairs.entries()) {
      let row: Row;
      try {
        await add.mutateAsync({ rom: p.rom, cover: p.cover, consoleId });
        row = { name: p.rom.name, state: 'added' };
      } catch (err) {
        row = { name: p.rom.name, state: 'failed', message: reason(err) };
      }
      setRows((r) => r.map((x, j) => (j === i ? row : x)));
    }
  };

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    void upload(Array.from(e.dataTransfer.files));
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
          <select value={consoleId} onChange={(e) => setConsoleId(e.target.value)}>
            <option value="">{t('upload.fromExtension')}</option>
            {consoles.map((c) => (
              <option key={c.id} value={c.id}>
                {c.shortName} — {c.name}
              </option>
            ))}
          </select>
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
              {r.state === 'uploading'
                ? t('upload.uploading', { name: r.name })
                : r.state === 'added'
                  ? t('upload.added', { name: r.name })
                  : t('upload.failed', { name: r.name, message: r.message })}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
