import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError } from '../../../lib/api';
import { toast } from '../../../lib/toast';
import { useCreateArticle, type Article, type NewArticle } from '../api';
import { BLOG_NS } from '../i18n';
import { autonym } from '../language';
import { Modal } from '../../../components/ui/Modal';

type Field = 'name' | 'excerpt' | 'content' | 'category' | 'image_url' | 'lang' | 'translationKey';
const FIELDS: Field[] = ['name', 'excerpt', 'content', 'category', 'image_url', 'lang', 'translationKey'];
const REQUIRED: Field[] = ['name', 'excerpt', 'content', 'category'];
/** The form's language choices; the default is the site's default language, as on the server. */
const ARTICLE_LANGUAGES = ['en', 'uk', 'ru'] as const;
const DEFAULT_ARTICLE_LANG = 'en';

interface Props {
  onClose: () => void;
  onCreated: (article: Article) => void;
}

/**
 * The admin's "new article" form (name, excerpt, content, category required; image
 * optional), plus the article's language and an optional translation key that links it with its
 * translations.
 */
export function CreateArticleModal({ onClose, onCreated }: Props) {
  const { t } = useTranslation(BLOG_NS);
  const [values, setValues] = useState<Record<Field, string>>({
    name: '',
    excerpt: '',
    content: '',
    category: '',
    image_url: '',
    lang: DEFAULT_ARTICLE_LANG,
    translationKey: '',
  });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const create = useCreateArticle();
  const busy = create.isPending;
  const formRef = useRef<HTMLFormElement>(null);
  // Typed text is not thrown away by a stray click beside the dialog.
  const dirty = FIELDS.some((f) => f !== 'lang' && values[f].trim() !== '');

  /** Moves the focus to the first field with an error, so keyboard and screen-reader users land on it. */
  const focusFirstError = (errs: Partial<Record<Field, string>>) => {
    const first = FIELDS.find((f) => errs[f]);
    if (first) requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus());
  };

  /** The server's field error in the reader's language when its code is a known one. */
  const fieldMessage = (f: Field, code: string | undefined, message: string) => {
    if (code === 'required') return t('form.required');
    if (code === 'too_long') return t('form.tooLong');
    if (code === 'invalid' && f === 'image_url') return t('form.imageInvalid');
    if (code === 'invalid' && f === 'lang') return t('form.langInvalid');
    return message;
  };

  const set = (f: Field) => (e: { target: { value: string } }) => {
    setValues((v) => ({ ...v, [f]: e.target.value }));
    setErrors((er) => ({ ...er, [f]: undefined }));
  };

  async function submit(e: FormEvent) {
    e.preventDefault();
    const missing: Partial<Record<Field, string>> = {};
    for (const f of REQUIRED) if (!values[f].trim()) missing[f] = t('form.required');
    if (Object.keys(missing).length) {
      setErrors(missing);
      focusFirstError(missing);
      return;
    }
    const input: NewArticle = {
      name: values.name.trim(),
      excerpt: values.excerpt.trim(),
      content: values.content,
      category: values.category.trim(),
      image_url: values.image_url.trim(),
      lang: values.lang,
      translationKey: values.translationKey.trim(),
    };
    try {
      const created = await create.mutateAsync(input);
      toast.success(t('toast.created'));
      onCreated(created);
    } catch (err) {
      toast.error(t('toast.createError'));
      if (err instanceof ApiError && err.data && typeof err.data === 'object') {
        const fieldErrors: Partial<Record<Field, string>> = {};
        for (const [k, v] of Object.entries(err.data)) {
          const { code, message } = (v ?? {}) as { code?: string; message?: string };
          if ((FIELDS as string[]).includes(k) && message) fieldErrors[k as Field] = fieldMessage(k as Field, code, message);
        }
        setErrors(fieldErrors);
        focusFirstError(fieldErrors);
      }
    }
  }

  const field = (f: Field, label: string, multiline?: 'short' | 'long', hint?: string) => {
    const id = `blog-form-${f}`;
    const errId = `${id}-error`;
    const hintId = `${id}-hint`;
    const described = [errors[f] ? errId : null, hint ? hintId : null].filter(Boolean).join(' ') || undefined;
    const common = {
      id,
      name: f,
      value: values[f],
      onChange: set(f),
      required: REQUIRED.includes(f),
      'aria-invalid': errors[f] ? true : undefined,
      'aria-describedby': described,
      className: 'blog-form__input',
    };
    return (
      <div className="blog-form__field">
        <label htmlFor={id} className="blog-form__label">
          {label}
        </label>
        {multiline ? <textarea {...common} rows={multiline === 'long' ? 10 : 3} /> : <input {...common} type="text" />}
        {hint ? (
          <small id={hintId} className="blog-form__hint">
            {hint}
          </small>
        ) : null}
        {errors[f] ? (
          <small id={errId} className="blog-form__error" role="alert">
            {errors[f]}
          </small>
        ) : null}
      </div>
    );
  };

  return (
    <Modal
      title={t('form.title')}
      onClose={onClose}
      closeLabel={t('form.close')}
      closeOnBackdrop={!dirty}
    >
      <form ref={formRef} className="blog-form" onSubmit={submit} noValidate>
        <div className="modal__body blog-form__fields">
          {field('name', t('form.name'))}
          {field('excerpt', t('form.excerpt'), 'short')}
          {field('content', t('form.content'), 'long')}
          {field('category', t('form.category'))}
          {field('image_url', t('form.image'), undefined, t('form.imageHint'))}
          <div className="blog-form__field">
            <label htmlFor="blog-form-lang" className="blog-form__label">
              {t('form.lang')}
            </label>
            <select
              id="blog-form-lang"
              name="lang"
              className="blog-form__input"
              value={values.lang}
              onChange={set('lang')}
              aria-invalid={errors.lang ? true : undefined}
              aria-describedby={errors.lang ? 'blog-form-lang-error' : undefined}
            >
              {ARTICLE_LANGUAGES.map((code) => (
                <option key={code} value={code} lang={code}>
                  {autonym(code)}
                </option>
              ))}
            </select>
            {errors.lang ? (
              <small id="blog-form-lang-error" className="blog-form__error" role="alert">
                {errors.lang}
              </small>
            ) : null}
          </div>
          {field('translationKey', t('form.translationKey'), undefined, t('form.translationKeyHint'))}
        </div>
        <p className="blog-form__editor">
          <Link to="/blog/new" onClick={onClose}>
            {t('editor.openFull')}
          </Link>
        </p>
        <div className="modal__actions">
          <button type="button" className="btn" onClick={onClose}>
            {t('form.cancel')}
          </button>
          <button type="submit" className="btn btn--primary" disabled={busy}>
            {busy ? t('form.submitting') : t('form.submit')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
