// The editor's state: the fields as typed, what the server last saved, and the save state the
// page shows. A draft (and a new article, once its required fields are filled) is saved on the
// server a moment after the last keystroke; a published or scheduled article is saved only when
// the writer asks (half an edit must not go live). Every save names the version it is based on:
// when someone else saved in between, the server refuses with 409 and the state is 'conflict'
// until the writer reloads.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ApiError } from '../../../lib/api';
import { editArticle, saveNewArticle, type ArticleEdit, type ArticleStatus, type SavedArticle } from '../api';

export interface EditorFields {
  name: string;
  excerpt: string;
  content: string;
  category: string;
  image_url: string;
  lang: string;
  translationKey: string;
  status: NonNullable<ArticleStatus>;
  /** A datetime-local value ("2030-01-31T10:00", the writer's time zone); '' when none. */
  publishAt: string;
  /** Whether the article is mailed to the newsletter's subscribers when it goes public. */
  newsletter: boolean;
}

export type SaveState = 'saved' | 'unsaved' | 'saving' | 'conflict' | 'error';

/** How long after the last keystroke a draft is saved. */
export const AUTOSAVE_MS = 1500;

const pad = (n: number) => String(n).padStart(2, '0');

/** An ISO time as a datetime-local value in the writer's time zone. */
export function toLocalInput(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A datetime-local value as an ISO time (null when empty or not a time). */
export function fromLocalInput(v: string): string | null {
  if (!v) return null;
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/** What the editor needs of a stored article (a full answer or the list's cached one). */
export interface EditableArticle {
  id: number;
  name: string;
  excerpt: string;
  content: string;
  category: string;
  image_url: string;
  lang?: string;
  translationKey?: string;
  status?: ArticleStatus;
  publishAt?: string | null;
  version?: number;
  newsletter?: boolean;
}

export function fieldsOf(a: EditableArticle | undefined, defaultLang: string): EditorFields {
  return {
    name: a?.name ?? '',
    excerpt: a?.excerpt ?? '',
    content: a?.content ?? '',
    category: a?.category ?? '',
    image_url: a?.image_url ?? '',
    lang: a?.lang || defaultLang,
    translationKey: a?.translationKey ?? '',
    status: a?.status ?? 'draft',
    publishAt: toLocalInput(a?.publishAt),
    newsletter: a?.newsletter ?? true,
  };
}

function bodyOf(f: EditorFields): ArticleEdit {
  return {
    name: f.name,
    excerpt: f.excerpt,
    content: f.content,
    category: f.category,
    image_url: f.image_url,
    lang: f.lang,
    translationKey: f.translationKey,
    status: f.status,
    publishAt: f.status === 'scheduled' ? fromLocalInput(f.publishAt) : null,
    newsletter: f.newsletter,
  };
}

const required = (f: EditorFields) => [f.name, f.excerpt, f.category, f.content].every((v) => v.trim() !== '');

interface Options {
  article?: EditableArticle;
  defaultLang: string;
  /** A new article was stored (its first save): the page moves to its address. */
  onCreated?: (a: SavedArticle) => void;
  /** A save succeeded (the caches follow). */
  onSaved?: (a: SavedArticle) => void;
  autosaveMs?: number;
}

export function useArticleEditor({ article, defaultLang, onCreated, onSaved, autosaveMs = AUTOSAVE_MS }: Options) {
  const [fields, setFields] = useState<EditorFields>(() => fieldsOf(article, defaultLang));
  const [saved, setSaved] = useState<EditorFields>(() => fieldsOf(article, defaultLang));
  const [id, setId] = useState<number | undefined>(article?.id);
  const [version, setVersion] = useState<number | undefined>(article?.version);
  // the status as stored: autosave runs for drafts only
  const [storedStatus, setStoredStatus] = useState<ArticleStatus | undefined>(article?.status);
  const [state, setState] = useState<SaveState>('saved');
  const [error, setError] = useState<ApiError | null>(null);
  const inFlight = useRef(false);

  const dirty = useMemo(() => JSON.stringify(fields) !== JSON.stringify(saved), [fields, saved]);

  /** Takes a stored article as the editor's new starting point (after a reload or a restore). */
  const reset = useCallback(
    (a: EditableArticle) => {
      const f = fieldsOf(a, defaultLang);
      setFields(f);
      setSaved(f);
      setId(a.id);
      setVersion(a.version);
      setStoredStatus(a.status);
      setState('saved');
      setError(null);
    },
    [defaultLang],
  );

  const latest = useRef(fields);
  latest.current = fields;

  const save = useCallback(async (): Promise<SavedArticle | undefined> => {
    if (inFlight.current) return undefined;
    inFlight.current = true;
    const sent = latest.current;
    setState('saving');
    try {
      const res =
        id === undefined ? await saveNewArticle(bodyOf(sent)) : await editArticle(id, { ...bodyOf(sent), version });
      setSaved(sent);
      setVersion(res.version);
      setStoredStatus(res.status);
      setError(null);
      setState(JSON.stringify(latest.current) === JSON.stringify(sent) ? 'saved' : 'unsaved');
      if (id === undefined) {
        setId(res.id);
        onCreated?.(res);
      }
      onSaved?.(res);
      return res;
    } catch (err) {
      const e = err instanceof ApiError ? err : new ApiError(0, String(err));
      setError(e);
      setState(e.status === 409 ? 'conflict' : 'error');
      return undefined;
    } finally {
      inFlight.current = false;
    }
  }, [id, version, onCreated, onSaved]);

  const set = useCallback(<K extends keyof EditorFields>(key: K, value: EditorFields[K]) => {
    setFields((f) => ({ ...f, [key]: value }));
    setState((s) => (s === 'conflict' ? s : 'unsaved'));
  }, []);

  // Autosave: a draft, a moment after the last change, unless a conflict waits for a reload.
  const autosave = dirty && state !== 'conflict' && state !== 'saving' && fields.status === 'draft' &&
    (storedStatus === undefined || storedStatus === 'draft') && required(fields);
  useEffect(() => {
    if (!autosave) return;
    const t = window.setTimeout(() => void save(), autosaveMs);
    return () => window.clearTimeout(t);
  }, [autosave, fields, save, autosaveMs]);

  return { fields, set, save, reset, id, version, dirty, state: dirty && state === 'saved' ? 'unsaved' : state, error };
}
