import { useEffect, useId, useReducer, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../../lib/toast';
import { type FileItem, type UploadHandle, type UploadProgress, UploadError, uploadFiles } from '../api';
import { BINARY_UNITS, type BinaryUnits, formatBinary, formatSpeed } from '../format';
import { FILES_NS } from '../i18n';

/** The uploader's states (spec §4): idle, selected, uploading with progress and speed, done. */
export type UploaderState =
  | { phase: 'idle' }
  | { phase: 'selected'; files: File[] }
  | { phase: 'uploading'; files: File[]; progress: UploadProgress }
  | { phase: 'done'; uploaded: FileItem[] };

export type UploaderAction =
  | { type: 'select'; files: File[] }
  | { type: 'start' }
  | { type: 'progress'; progress: UploadProgress }
  | { type: 'success'; uploaded: FileItem[] }
  | { type: 'failure' }
  | { type: 'reset' };

const NO_PROGRESS: UploadProgress = { loaded: 0, total: 0, percent: 0, speed: 0 };

export function uploaderReducer(state: UploaderState, action: UploaderAction): UploaderState {
  switch (action.type) {
    case 'select':
      if (state.phase === 'uploading') return state;
      return action.files.length ? { phase: 'selected', files: action.files } : { phase: 'idle' };
    case 'start':
      return state.phase === 'selected' ? { phase: 'uploading', files: state.files, progress: NO_PROGRESS } : state;
    case 'progress':
      return state.phase === 'uploading' ? { ...state, progress: action.progress } : state;
    case 'success':
      // The selection is cleared; the panel shows what was uploaded.
      return { phase: 'done', uploaded: action.uploaded };
    case 'failure':
    case 'reset':
      return { phase: 'idle' };
  }
}

/** The message to show for a failed upload (spec §8). */
export function uploadErrorMessage(err: unknown, t: (k: string) => string): string {
  if (err instanceof UploadError) {
    if (err.kind === 'network') return t('uploader.network');
    if (err.kind === 'parse') return t('uploader.parse');
    if (err.kind === 'server' && err.message && err.message !== 'Upload failed') return err.message;
  }
  return t('uploader.failed');
}

interface Props {
  /** Called with the stored files after a successful upload (the page reloads its list). */
  onUploaded: (files: FileItem[]) => void;
}

/**
 * Any files, several at once, no size limit in the client (spec §5). Shows the first selected
 * file's name and size, then percent and speed while uploading, then a success panel.
 */
export function Uploader({ onUploaded }: Props) {
  const { t } = useTranslation(FILES_NS);
  const [state, dispatch] = useReducer(uploaderReducer, { phase: 'idle' });
  const inputRef = useRef<HTMLInputElement>(null);
  const handle = useRef<UploadHandle | null>(null);
  const inputId = useId();
  const titleId = useId();

  // Leaving the page stops an upload in flight.
  useEffect(() => () => handle.current?.abort(), []);

  const clearInput = () => {
    if (inputRef.current) inputRef.current.value = '';
  };

  const start = () => {
    if (state.phase !== 'selected') return;
    dispatch({ type: 'start' });
    const h = uploadFiles(state.files, (progress) => dispatch({ type: 'progress', progress }));
    handle.current = h;
    h.promise
      .then((uploaded) => {
        dispatch({ type: 'success', uploaded });
        toast.success(t('uploader.success'));
        onUploaded(uploaded);
      })
      .catch((err: unknown) => {
        if (err instanceof UploadError && err.kind === 'aborted') return;
        dispatch({ type: 'failure' });
        toast.error(uploadErrorMessage(err, t));
      })
      .finally(() => {
        handle.current = null;
        clearInput();
      });
  };

  const unitList = t('uploader.units', { returnObjects: true }) as unknown;
  const units = Array.isArray(unitList) && unitList.length === 5 ? (unitList as unknown as BinaryUnits) : BINARY_UNITS;
  const size = (n: number) => formatBinary(n, units);

  const files = state.phase === 'selected' || state.phase === 'uploading' ? state.files : [];
  const first = files[0];

  return (
    <section className="files-uploader" aria-labelledby={titleId}>
      <h2 id={titleId} className="files-uploader__title">
        {t('uploader.title')}
      </h2>
      {state.phase === 'done' ? (
        <div className="files-uploader__done" role="status">
          <p className="files-uploader__done-title">{t('uploader.doneTitle')}</p>
          {state.uploaded[0] ? (
            <p className="files-uploader__done-file">
              {t('uploader.doneFile', { name: state.uploaded[0].originalName, size: size(state.uploaded[0].size) })}
              {state.uploaded.length > 1 ? ` ${t('uploader.more', { count: state.uploaded.length - 1 })}` : ''}
            </p>
          ) : null}
          <button type="button" className="btn" onClick={() => dispatch({ type: 'reset' })}>
            {t('uploader.another')}
          </button>
        </div>
      ) : (
        <>
          <div className="files-uploader__pick">
            <input
              ref={inputRef}
              id={inputId}
              className="files-uploader__input"
              type="file"
              multiple
              disabled={state.phase === 'uploading'}
              onChange={(e) => dispatch({ type: 'select', files: Array.from(e.currentTarget.files ?? []) })}
            />
            <label htmlFor={inputId} className="btn files-uploader__choose">
              {t('uploader.choose')}
            </label>
            <span className="files-uploader__hint">{t('uploader.drop')}</span>
          </div>
          {first ? (
            <p className="files-uploader__selected" data-testid="upload-selection">
              {t('uploader.selected', { name: first.name, size: size(first.size) })}
              {files.length > 1 ? ` ${t('uploader.more', { count: files.length - 1 })}` : ''}
            </p>
          ) : null}
          {state.phase === 'uploading' ? (
            <div className="files-uploader__progress" role="status">
              <span>{t('uploader.uploading')}</span>
              <progress max={100} value={state.progress.percent} aria-label={t('uploader.progressLabel')} />
              <span data-testid="upload-progress">
                {t('uploader.progress', { percent: state.progress.percent, speed: formatSpeed(state.progress.speed, units, t('uploader.perSecond')) })}
              </span>
            </div>
          ) : null}
          <div className="files-uploader__actions">
            <button type="button" className="btn btn--primary" onClick={start} disabled={state.phase !== 'selected'}>
              {t('uploader.upload')}
            </button>
            {state.phase === 'selected' ? (
              <button
                type="button"
                className="btn btn--ghost"
                onClick={() => {
                  dispatch({ type: 'reset' });
                  clearInput();
                }}
              >
                {t('uploader.clear')}
              </button>
            ) : null}
          </div>
        </>
      )}
    </section>
  );
}
