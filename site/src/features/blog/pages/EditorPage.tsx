import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { Select, TextField } from '../../../components/ui/Field';
import { Page } from '../../../components/ui/Page';
import { errorMessage } from '../../../lib/api';
import { useAuth } from '../../../lib/auth';
import { LANGUAGES } from '../../../lib/languageDetection';
import { useDebouncedValue } from '../../../lib/useDebouncedValue';
import { articleQuery, blogKeys, getArticle, previewMarkdown, type SavedArticle } from '../api';
import { ArticleContent } from '../components/ArticleContent';
import { MarkdownField, uploadImage } from '../editor/MarkdownField';
import { Revisions } from '../editor/Revisions';
import { useArticleEditor, type EditableArticle, type EditorFields, type SaveState } from '../editor/useArticleEditor';
import { useLeaveGuard } from '../editor/useLeaveGuard';
import { BLOG_NS } from '../i18n';
import '../blog.css';
import '../chroma.css';
import '../editor/editor.css';

/** The live preview waits this long after the last keystroke. */
export const PREVIEW_DEBOUNCE_MS = 400;

/**
 * /blog/new and /blog/:id/edit (admins): the article's fields, its Markdown with a toolbar and
 * a live preview rendered by the server, its status and publication time, autosave of drafts,
 * the save state, a conflict notice when someone else saved meanwhile, and its revisions.
 */
export default function EditorPage() {
  const { t } = useTranslation(BLOG_NS);
  const { id } = useParams();
  const { isAdmin, loading } = useAuth();
  const query = useQuery({ ...articleQuery(id ?? ''), enabled: Boolean(id) && isAdmin });

  if (loading) return <Page title={t('editor.title')}>{null}</Page>;
  if (!isAdmin) {
    return (
      <Page title={t('editor.title')}>
        <p role="alert">{t('editor.adminsOnly')}</p>
        <Link to="/blog">← {t('article.back')}</Link>
      </Page>
    );
  }
  if (id && !query.data) {
    return (
      <Page title={t('editor.title')}>
        {query.isError ? <p role="alert">{t('article.loadError')}</p> : <p role="status">{t('article.loading')}</p>}
      </Page>
    );
  }
  // One element for a new article and, once its first save gave it an address, the same one.
  return <Editor article={id ? query.data : undefined} />;
}

const STATUS_LABEL: Record<SaveState, string> = {
  saved: 'editor.state.saved',
  unsaved: 'editor.state.unsaved',
  saving: 'editor.state.saving',
  conflict: 'editor.state.conflict',
  error: 'editor.state.error',
};

function Editor({ article }: { article?: EditableArticle }) {
  const { t, i18n } = useTranslation(BLOG_NS);
  const navigate = useNavigate();
  const qc = useQueryClient();
  const uid = useId();

  const onSaved = useCallback(
    (a: SavedArticle) => {
      qc.setQueryData(blogKeys.article(String(a.id)), (old: SavedArticle | undefined) => ({ ...old, ...a }));
      void qc.invalidateQueries({ queryKey: ['blog', 'list'] });
      void qc.invalidateQueries({ queryKey: blogKeys.categories });
      void qc.invalidateQueries({ queryKey: blogKeys.revisions(a.id) });
    },
    [qc],
  );
  const onCreated = useCallback(
    (a: SavedArticle) => {
      qc.setQueryData(blogKeys.article(String(a.id)), a);
      void navigate(`/blog/${a.id}/edit`, { replace: true });
    },
    [qc, navigate],
  );
  const ed = useArticleEditor({ article, defaultLang: i18n.language || 'en', onCreated, onSaved });
  const { fields, set } = ed;
  useLeaveGuard(ed.dirty, t('editor.leave'));

  const debounced = useDebouncedValue(fields.content, PREVIEW_DEBOUNCE_MS);
  const preview = useQuery({
    queryKey: blogKeys.preview(debounced),
    queryFn: ({ signal }) => previewMarkdown(debounced, signal),
    placeholderData: keepPreviousData,
    enabled: debounced.trim() !== '',
    staleTime: Infinity,
  });

  const [reloading, setReloading] = useState(false);
  async function reload() {
    if (ed.id === undefined) return;
    setReloading(true);
    try {
      const a = await getArticle(String(ed.id));
      ed.reset(a);
      qc.setQueryData(blogKeys.article(String(a.id)), a);
    } finally {
      setReloading(false);
    }
  }

  async function uploadCover(file: File | undefined) {
    if (!file) return;
    const up = await uploadImage(file, t);
    if (up) set('image_url', up.url);
  }

  const field = (key: keyof EditorFields) => `${uid}-${key}`;
  const text = (key: 'name' | 'category' | 'image_url' | 'translationKey', label: string, required = false) => (
    <div className="editor__field">
      <label htmlFor={field(key)}>{label}</label>
      <TextField id={field(key)} value={fields[key]} required={required} onChange={(e) => set(key, e.target.value)} />
    </div>
  );

  return (
    <Page title={ed.id === undefined ? t('editor.newTitle') : t('editor.editTitle')} className="editor">
      <div className="editor__bar">
        <span className={`editor__state editor__state--${ed.state}`} role="status" data-testid="save-state">
          {t(STATUS_LABEL[ed.state])}
        </span>
        <button type="button" className="btn btn--primary" onClick={() => void ed.save()} disabled={ed.state === 'saving' || ed.state === 'conflict'}>
          {t('editor.save')}
        </button>
        {ed.id !== undefined ? (
          <Link to={`/blog/${ed.id}`} className="btn btn--ghost">
            {t('editor.view')}
          </Link>
        ) : null}
      </div>
      {ed.state === 'conflict' ? (
        <div className="editor__notice editor__notice--conflict" role="alert">
          <p>{t('editor.conflict')}</p>
          <button type="button" className="btn" onClick={() => void reload()} disabled={reloading}>
            {t('editor.reload')}
          </button>
        </div>
      ) : null}
      {ed.state === 'error' && ed.error ? (
        <p className="editor__notice" role="alert">
          {errorMessage(ed.error, t('editor.state.error'))}
        </p>
      ) : null}

      <div className="editor__fields">
        {text('name', t('form.name'), true)}
        <div className="editor__field editor__field--wide">
          <label htmlFor={field('excerpt')}>{t('form.excerpt')}</label>
          <textarea id={field('excerpt')} className="field-input editor__excerpt" rows={2} required value={fields.excerpt} onChange={(e) => set('excerpt', e.target.value)} />
        </div>
        {text('category', t('form.category'), true)}
        <div className="editor__field">
          <label htmlFor={field('lang')}>{t('form.lang')}</label>
          <Select id={field('lang')} value={fields.lang} onChange={(e) => set('lang', e.target.value)}>
            {LANGUAGES.map((l) => (
              <option key={l.code} value={l.code}>
                {l.name}
              </option>
            ))}
            {LANGUAGES.some((l) => l.code === fields.lang) ? null : <option value={fields.lang}>{fields.lang}</option>}
          </Select>
        </div>
        {text('translationKey', t('form.translationKey'))}
        <div className="editor__field editor__field--wide">
          <label htmlFor={field('image_url')}>{t('editor.cover')}</label>
          <div className="editor__cover">
            <TextField id={field('image_url')} value={fields.image_url} onChange={(e) => set('image_url', e.target.value)} />
            <label className="btn editor__upload">
              {t('editor.uploadCover')}
              <input
                type="file"
                accept="image/png,image/jpeg,image/gif,image/webp"
                className="visually-hidden"
                onChange={(e) => {
                  void uploadCover(e.target.files?.[0]);
                  e.target.value = '';
                }}
              />
            </label>
          </div>
        </div>
        <div className="editor__field">
          <label htmlFor={field('status')}>{t('editor.status')}</label>
          <Select id={field('status')} value={fields.status} onChange={(e) => set('status', e.target.value as EditorFields['status'])}>
            <option value="draft">{t('status.draft')}</option>
            <option value="scheduled">{t('status.scheduled')}</option>
            <option value="published">{t('status.published')}</option>
          </Select>
        </div>
        {fields.status === 'scheduled' ? (
          <div className="editor__field">
            <label htmlFor={field('publishAt')}>{t('editor.publishAt')}</label>
            <TextField
              id={field('publishAt')}
              type="datetime-local"
              step={1}
              required
              value={fields.publishAt}
              onChange={(e) => set('publishAt', e.target.value)}
            />
          </div>
        ) : null}
        <div className="editor__field editor__field--check">
          <label htmlFor={field('newsletter')}>
            <input
              id={field('newsletter')}
              type="checkbox"
              checked={fields.newsletter}
              onChange={(e) => set('newsletter', e.target.checked)}
              aria-describedby={`${field('newsletter')}-hint`}
            />{' '}
            {t('editor.newsletter')}
          </label>
          <small id={`${field('newsletter')}-hint`} className="editor__hint">
            {t('editor.newsletterHint')}
          </small>
        </div>
      </div>

      <div className="editor__panes">
        <div className="editor__pane">
          <label htmlFor={field('content')} className="editor__pane-label">
            {t('form.content')}
          </label>
          <MarkdownField id={field('content')} value={fields.content} onChange={(v) => set('content', v)} />
        </div>
        <div className="editor__pane">
          <h2 className="editor__pane-label" id={`${uid}-preview`}>
            {t('editor.preview')}
          </h2>
          <div className="editor__preview blog-article" aria-labelledby={`${uid}-preview`} aria-busy={preview.isFetching} data-testid="preview" lang={fields.lang}>
            {fields.content.trim() === '' ? (
              <p className="editor__empty">{t('editor.previewEmpty')}</p>
            ) : (
              <ArticleContent html={preview.data ?? ''} />
            )}
          </div>
        </div>
      </div>

      {ed.id !== undefined && ed.version !== undefined ? (
        <Revisions id={ed.id} version={ed.version} dirty={ed.dirty} onRestored={(a) => { ed.reset(a); onSaved(a); }} onConflict={() => void reload()} />
      ) : null}
    </Page>
  );
}
