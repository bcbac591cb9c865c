import { useEffect, useId, useReducer, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../../lib/auth';
import { toast } from '../../../lib/toast';
import {
  type FileItem,
  type UploadHandle,
  type UploadProgress,
  UploadError,
  type Visibility,
  getFile,
  uploadFiles,
  useRefreshQuota,
  useRefreshUnfinished,
} from '../api';
import { type BinaryUnits, formatBinary, formatSpeed } from '../format';
import { FILES_NS } from '../i18n';
import { quotaFromErrorData } from '../../../lib/quotaRefusal';
import { isResumable, loadTus } from '../../../lib/resumable/resumable';
import type { ResumableFailure, ResumableUpload } from '../../../lib/resumable/tus';
import { quotaRefusalText } from '../quota';
import { useBinaryUnits } from '../useUnits';
import { QuotaUsage } from './QuotaUsage';
import { RUNNING, type ResumableItem, ResumableList } from './ResumableList';
import { UnfinishedUploads } from './UnfinishedUploads';
import '../resumable.css';

/**
 * The uploader's states: idle, selected, uploading with progress and speed, done.
 * Small files go together as one multipart upload (`progress`); large ones each through tus
 * (`resumable`), which can be paused, resumed and cancelled one by one.
 */
export type UploaderState =
  | { phase: 'idle'; errors: string[] }
  | { phase: 'selected'; files: File[]; earlier: string[] }
  | { phase: 'uploading'; files: File[]; multipart: boolean; progress: UploadProgress; resumable: ResumableItem[] }
  | { phase: 'done'; uploaded: FileItem[]; errors: string[] };

export type UploaderAction =
  | { type: 'select'; files: File[] }
  | { type: 'earlier'; files: File[]; names: string[] }
  | { type: 'start'; multipart: boolean; resumable: ResumableItem[] }
  | { type: 'progress'; progress: UploadProgress }
  | { type: 'item'; key: number; patch: Partial<ResumableItem> }
  | { type: 'itemProgress'; key: number; sent: number; speed: number }
  | { type: 'finish'; uploaded: FileItem[]; any: boolean; errors: string[] }
  | { type: 'reset' };

const NO_PROGRESS: UploadProgress = { loaded: 0, total: 0, percent: 0, speed: 0 };

export function uploaderReducer(state: UploaderState, action: UploaderAction): UploaderState {
  switch (action.type) {
    case 'select':
      if (state.phase === 'uploading') return state;
      return action.files.length ? { phase: 'selected', files: action.files, earlier: [] } : { phase: 'idle', errors: [] };
    case 'earlier':
      // Only for the selection it was asked about.
      return state.phase === 'selected' && state.files === action.files ? { ...state, earlier: action.names } : state;
    case 'start':
      return state.phase === 'selected'
        ? { phase: 'uploading', files: state.files, multipart: action.multipart, progress: NO_PROGRESS, resumable: action.resumable }
        : state;
    case 'progress':
      return state.phase === 'uploading' ? { ...state, progress: action.progress } : state;
    case 'item':
    case 'itemProgress': {
      if (state.phase !== 'uploading') return state;
      const resumable = state.resumable.map((it) => {
        if (it.key !== action.key) return it;
        if (action.type === 'item') return { ...it, ...action.patch };
        // Bytes only move a running upload (or a stalled one the browser resumed by itself).
        if (!RUNNING.includes(it.status) && it.status !== 'stalled') return it;
        return { ...it, status: 'uploading' as const, sent: action.sent, speed: action.speed };
      });
      return { ...state, resumable };
    }
    case 'finish':
      // The selection is cleared; the panel shows what was uploaded and what was not.
      return action.any ? { phase: 'done', uploaded: action.uploaded, errors: action.errors } : { phase: 'idle', errors: action.errors };
    case 'reset':
      return { phase: 'idle', errors: [] };
  }
}

type Translate = (k: string, opts?: Record<string, unknown>) => string;

/** The quota message of a 413 over the user's quota, with the figures in the page's units. */
function quotaMessage(data: unknown, t: Translate, units: BinaryUnits, language?: string): string | null {
  const q = quotaFromErrorData(data);
  return q ? quotaRefusalText(q, t, units, language) : null;
}

/** The message to show for a failed upload (the quota's figures on a 413 over it). */
export function uploadErrorMessage(err: unknown, t: Translate, units?: BinaryUnits, language?: string): string {
  if (err instanceof UploadError) {
    if (err.kind === 'network') return t('uploader.network');
    if (err.kind === 'parse') return t('uploader.parse');
    if (err.status === 413 && units) {
      const q = quotaMessage(err.data, t, units, language);
      if (q) return q;
    }
    if (err.kind === 'server' && err.message && err.message !== 'Upload failed') return err.message;
  }
  return t('uploader.failed');
}

/** The message for a resumable upload that stopped for good. */
export function resumableErrorMessage(f: ResumableFailure, t: Translate, units: BinaryUnits, language?: string): string {
  if (f.kind === 'network') return t('uploader.network');
  if (f.quota) return quotaRefusalText(f.quota, t, units, language);
  if (f.status === 401) return t('resumable.signedOut');
  return f.message || t('uploader.failed');
}

/** At most this many resumable uploads send at once (the server allows a few per user). */
const MAX_ACTIVE = 2;

interface Outcome {
  uploaded: FileItem[];
  /** Something was stored (a finished tus upload may not say which record it became). */
  stored: boolean;
  error?: string;
}

interface Running {
  upload: ResumableUpload;
  settle: (o: Outcome) => void;
  started: boolean;
}

interface Props {
  /** Called with the stored files after a successful upload (the page reloads its list). */
  onUploaded: (files: FileItem[]) => void;
}

/**
 * Any files, several at once, no size limit in the client. Shows the storage quota, the
 * first selected file's name and size, then percent and speed while uploading (per file for
 * large ones, with pause, resume and cancel), then a success panel.
 */
export function Uploader({ onUploaded }: Props) {
  const { t, i18n } = useTranslation(FILES_NS);
  const { user } = useAuth();
  const refreshQuota = useRefreshQuota();
  const refreshUnfinished = useRefreshUnfinished();
  const [state, dispatch] = useReducer(uploaderReducer, { phase: 'idle', errors: [] });
  const inputRef = useRef<HTMLInputElement>(null);
  const handle = useRef<UploadHandle | null>(null);
  const running = useRef(new Map<number, Running>());
  const active = useRef(new Set<number>());
  const queue = useRef<number[]>([]);
  const inputId = useId();
  const titleId = useId();
  // Who will see the files of the next upload; fixed for an upload once it starts.
  const [visibility, setVisibility] = useState<Visibility>('public');
  const units = useBinaryUnits();
  const size = (n: number) => formatBinary(n, units, i18n.language);

  // Leaving the page stops the multipart upload; resumable ones pause, and the server keeps
  // their bytes so that picking the same file again continues them.
  useEffect(() => {
    const map = running.current;
    return () => {
      handle.current?.abort();
      for (const r of map.values()) r.upload.pause();
    };
  }, []);

  // Large files this browser already began to upload (before a reload) are named at once.
  const selected = state.phase === 'selected' ? state.files : null;
  useEffect(() => {
    if (!selected || !user) return;
    const files = selected;
    const large = files.filter(isResumable);
    if (!large.length) return;
    let live = true;
    // The upload code may fail to arrive (offline, or a new build replaced its chunk): then there
    // is nothing to say here, and the upload itself reports the failure.
    const earlierUpload = (f: File) =>
      loadTus()
        .then((tus) => tus.hasEarlierUpload(f, user.id, { visibility }))
        .catch(() => false);
    void Promise.all(large.map(async (f) => ((await earlierUpload(f)) ? f.name : null))).then((names) => {
      const earlier = names.filter((n): n is string => n !== null);
      if (live && earlier.length) dispatch({ type: 'earlier', files, names: earlier });
    });
    return () => {
      live = false;
    };
  }, [selected, user, visibility]);

  const clearInput = () => {
    if (inputRef.current) inputRef.current.value = '';
  };

  const pump = () => {
    while (active.current.size < MAX_ACTIVE && queue.current.length) {
      const key = queue.current.shift()!;
      const r = running.current.get(key);
      if (!r) continue;
      active.current.add(key);
      r.started = true;
      void r.upload.start();
    }
  };

  const stopped = (key: number) => {
    active.current.delete(key);
    pump();
  };

  const runResumable = async (file: File, key: number, userId: number, visibility: Visibility): Promise<Outcome> => {
    const patch = (p: Partial<ResumableItem>) => dispatch({ type: 'item', key, patch: p });
    let tus: Awaited<ReturnType<typeof loadTus>>;
    try {
      tus = await loadTus();
    } catch (err) {
      // The upload code itself could not be fetched (offline, or a new build replaced it).
      const message = err instanceof Error ? err.message : String(err);
      patch({ status: 'failed', error: message });
      return { uploaded: [], stored: false, error: t('resumable.failedFile', { name: file.name, message }) };
    }
    return new Promise<Outcome>((resolve) => {
      const settle = (o: Outcome) => {
        running.current.delete(key);
        queue.current = queue.current.filter((k) => k !== key);
        stopped(key);
        resolve(o);
      };
      const upload = new tus.ResumableUpload(
        file,
        userId,
        {
        onProgress: (sent, _total, speed) => {
          active.current.add(key);
          dispatch({ type: 'itemProgress', key, sent, speed });
        },
        onResumed: (offset) => patch({ resumedFrom: offset, sent: offset }),
        onRestarted: () => patch({ restarted: true }),
        onRetrying: () => patch({ status: 'retrying' }),
        onSuccess: (id) => {
          patch({ status: 'done', sent: file.size });
          // The finished upload's record, read once to hand to onUploaded as part of the upload's
          // own flow (the lists are refreshed by it); not a query nobody else reads.
          const found = id === null ? Promise.resolve(null) : getFile(id).catch(() => null);
          void found.then((item) => settle({ uploaded: item ? [item] : [], stored: true }));
        },
        onError: (failure) => {
          if (failure.kind === 'network') {
            // The retries ran out: it waits for the user (or the network) to resume.
            patch({ status: 'stalled' });
            stopped(key);
            return;
          }
          const message = resumableErrorMessage(failure, t, units, i18n.language);
          patch({ status: 'failed', error: message });
          settle({ uploaded: [], stored: false, error: t('resumable.failedFile', { name: file.name, message }) });
        },
        },
        { metadata: { visibility } },
      );
      running.current.set(key, { upload, settle, started: false });
      queue.current.push(key);
      pump();
    });
  };

  const pause = (key: number) => {
    const r = running.current.get(key);
    if (!r) return;
    if (r.started) r.upload.pause();
    else queue.current = queue.current.filter((k) => k !== key);
    dispatch({ type: 'item', key, patch: { status: 'paused', speed: 0 } });
    stopped(key);
  };

  const resume = (key: number) => {
    const r = running.current.get(key);
    if (!r) return;
    dispatch({ type: 'item', key, patch: { status: 'uploading', speed: 0 } });
    // An explicit resume goes at once, whatever else is sending.
    active.current.add(key);
    if (r.started) r.upload.resume();
    else {
      r.started = true;
      void r.upload.start();
    }
  };

  const cancel = (key: number) => {
    const r = running.current.get(key);
    if (!r) return;
    dispatch({ type: 'item', key, patch: { status: 'cancelled', speed: 0 } });
    const done = () => r.settle({ uploaded: [], stored: false });
    if (!r.started) {
      done();
      return;
    }
    // Terminated on the server (tus DELETE) and forgotten here; a failed DELETE leaves the bytes
    // to the server's expiry.
    r.upload.cancel().then(done, done);
  };

  const start = () => {
    if (state.phase !== 'selected') return;
    const small = state.files.filter((f) => !isResumable(f));
    const large = state.files.filter(isResumable);
    const items: ResumableItem[] = large.map((f, key) => ({
      key,
      name: f.name,
      size: f.size,
      status: 'waiting',
      sent: 0,
      speed: 0,
      resumedFrom: null,
      restarted: false,
      error: null,
    }));
    dispatch({ type: 'start', multipart: small.length > 0, resumable: items });

    const jobs: Promise<Outcome | null>[] = [];
    if (small.length) {
      const h = uploadFiles(small, (progress) => dispatch({ type: 'progress', progress }), visibility);
      handle.current = h;
      jobs.push(
        h.promise.then(
          (uploaded) => ({ uploaded, stored: true }),
          (err: unknown) => {
            if (err instanceof UploadError && err.kind === 'aborted') return null;
            return { uploaded: [], stored: false, error: uploadErrorMessage(err, t, units, i18n.language) };
          },
        ),
      );
    }
    // The page shows the uploader to signed-in users only; the id keeps two accounts' unfinished
    // uploads in one browser apart.
    large.forEach((f, key) => jobs.push(runResumable(f, key, user?.id ?? 0, visibility)));

    void Promise.all(jobs).then((outcomes) => {
      handle.current = null;
      clearInput();
      // Stopped by leaving the page: nothing to report.
      if (outcomes.includes(null)) return;
      const done = outcomes as Outcome[];
      const uploaded = done.flatMap((o) => o.uploaded);
      const errors = done.flatMap((o) => (o.error ? [o.error] : []));
      const any = done.some((o) => o.stored);
      for (const e of errors) toast.error(e);
      dispatch({ type: 'finish', uploaded, any, errors });
      refreshQuota();
      refreshUnfinished();
      if (any) {
        toast.success(t('uploader.success'));
        onUploaded(uploaded);
      }
    });
  };

  const files = state.phase === 'selected' || state.phase === 'uploading' ? state.files : [];
  const first = files[0];
  const errors = state.phase === 'idle' || state.phase === 'done' ? state.errors : [];
  const errorList =
    errors.length > 0 ? (
      <ul className="files-uploader__errors" role="alert" data-testid="upload-errors">
        {errors.map((e, i) => (
          <li key={i}>{e}</li>
        ))}
      </ul>
    ) : null;

  return (
    <section className="files-uploader" aria-labelledby={titleId}>
      <h2 id={titleId} className="files-uploader__title">
        {t('uploader.title')}
      </h2>
      <QuotaUsage />
      {state.phase === 'done' ? (
        <div className="files-uploader__done" role="status">
          <p className="files-uploader__done-title">{t('uploader.doneTitle')}</p>
          {state.uploaded[0] ? (
            <p className="files-uploader__done-file">
              {t('uploader.doneFile', { name: state.uploaded[0].originalName, size: size(state.uploaded[0].size) })}
              {state.uploaded.length > 1 ? ` ${t('uploader.more', { count: state.uploaded.length - 1 })}` : ''}
            </p>
          ) : null}
          {errorList}
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
          {state.phase === 'selected' && state.earlier.length > 0 ? (
            <ul className="files-resumable__note" data-testid="upload-earlier">
              {state.earlier.map((name) => (
                <li key={name}>{t('resumable.earlier', { name })}</li>
              ))}
            </ul>
          ) : null}
          <fieldset className="files-uploader__visibility" disabled={state.phase === 'uploading'}>
            <legend>{t('uploader.visibilityTitle')}</legend>
            {(['public', 'private'] as const).map((v) => (
              <label key={v}>
                <input type="radio" name={`${inputId}-visibility`} value={v} checked={visibility === v} onChange={() => setVisibility(v)} />{' '}
                {t(v === 'public' ? 'uploader.visibilityPublic' : 'uploader.visibilityPrivate')}
              </label>
            ))}
          </fieldset>
          {state.phase === 'idle' || state.phase === 'selected' ? <UnfinishedUploads /> : null}
          {state.phase === 'uploading' && state.multipart ? (
            <div className="files-uploader__progress" role="status">
              <span>{t('uploader.uploading')}</span>
              <progress max={100} value={state.progress.percent} aria-label={t('uploader.progressLabel')} />
              <span data-testid="upload-progress">
                {t('uploader.progress', { percent: state.progress.percent, speed: formatSpeed(state.progress.speed, units, t('uploader.perSecond'), i18n.language) })}
              </span>
            </div>
          ) : null}
          {state.phase === 'uploading' ? (
            <ResumableList items={state.resumable} onPause={pause} onResume={resume} onCancel={cancel} />
          ) : null}
          {errorList}
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
