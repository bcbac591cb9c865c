import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { TextField } from '../../../components/ui/Field';
import { errorMessage } from '../../../lib/api';
import { FORUM_NS } from '../i18n';

interface Props {
  /** Ask for a title too (a new thread). */
  withTitle?: boolean;
  label: string;
  submitLabel: string;
  initial?: string;
  onSubmit: (v: { title: string; content: string }) => Promise<unknown>;
  onCancel?: () => void;
}

/** The form that writes a thread, a reply or an edit: Markdown text, errors said in place. */
export function PostForm({ withTitle, label, submitLabel, initial = '', onSubmit, onCancel }: Props) {
  const { t } = useTranslation(FORUM_NS);
  const [title, setTitle] = useState('');
  const [content, setContent] = useState(initial);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const id = useId();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!content.trim() || (withTitle && !title.trim())) return;
    setBusy(true);
    setError('');
    try {
      await onSubmit({ title: title.trim(), content });
      setTitle('');
      setContent('');
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="forum-form" onSubmit={submit}>
      {withTitle ? (
        <label className="forum-form__field">
          <span>{t('threadTitle')}</span>
          <TextField value={title} onChange={(e) => setTitle(e.target.value)} maxLength={200} required />
        </label>
      ) : null}
      <label className="forum-form__field" htmlFor={id}>
        <span>{label}</span>
      </label>
      <textarea id={id} className="field-input forum-form__text" value={content} onChange={(e) => setContent(e.target.value)} rows={4} required />
      {error ? (
        <p role="alert" className="forum-form__error">
          {error}
        </p>
      ) : null}
      <div className="forum-form__actions">
        <button type="submit" className="btn btn--primary" disabled={busy}>
          {submitLabel}
        </button>
        {onCancel ? (
          <button type="button" className="btn" onClick={onCancel}>
            {t('cancel')}
          </button>
        ) : null}
      </div>
    </form>
  );
}
