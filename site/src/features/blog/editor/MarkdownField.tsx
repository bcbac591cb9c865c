import { useRef, type ClipboardEvent, type DragEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/api';
import { toast } from '../../../lib/toast';
import { uploadArticleImage, type UploadedImage } from '../api';
import { BLOG_NS } from '../i18n';
import { applyFormat, imageMarkdown, shortcutFormat, type Edit, type Format } from './markdownEdit';

/** What an article image may be (the server checks the same). */
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

/** Checks and uploads one image; the toast says why one was refused. */
export async function uploadImage(file: File, t: (k: string, o?: Record<string, unknown>) => string): Promise<UploadedImage | null> {
  if (!IMAGE_TYPES.includes(file.type)) {
    toast.error(t('editor.imageType'));
    return null;
  }
  if (file.size > MAX_IMAGE_BYTES) {
    toast.error(t('editor.imageTooLarge', { mb: MAX_IMAGE_BYTES >> 20 }));
    return null;
  }
  try {
    return await uploadArticleImage(file, file.name || 'image');
  } catch (err) {
    toast.error(errorMessage(err, t('editor.imageError')));
    return null;
  }
}

const TOOLS: Array<{ format: Format; label: string; text: string; keys?: string }> = [
  { format: 'bold', label: 'editor.tool.bold', text: 'B', keys: 'Control+B' },
  { format: 'italic', label: 'editor.tool.italic', text: 'I', keys: 'Control+I' },
  { format: 'link', label: 'editor.tool.link', text: '🔗', keys: 'Control+K' },
  { format: 'heading', label: 'editor.tool.heading', text: 'H' },
  { format: 'code', label: 'editor.tool.code', text: '</>' },
  { format: 'list', label: 'editor.tool.list', text: '•' },
  { format: 'image', label: 'editor.tool.image', text: '🖼' },
];

interface Props {
  value: string;
  onChange: (v: string) => void;
  id: string;
}

/**
 * The Markdown text area with its toolbar and shortcuts (Ctrl/⌘ + B, I, K). An image pasted or
 * dropped into it is uploaded and inserted at the caret as Markdown, its alt text selected to
 * be filled in.
 */
export function MarkdownField({ value, onChange, id }: Props) {
  const { t } = useTranslation(BLOG_NS);
  const ref = useRef<HTMLTextAreaElement>(null);

  function current(): Edit {
    const el = ref.current;
    return { text: value, start: el?.selectionStart ?? value.length, end: el?.selectionEnd ?? value.length };
  }

  function apply(e: Edit) {
    onChange(e.text);
    requestAnimationFrame(() => {
      const el = ref.current;
      if (!el) return;
      el.focus();
      el.setSelectionRange(e.start, e.end);
    });
  }

  function format(f: Format) {
    apply(applyFormat(current(), f, t('editor.placeholderText')));
  }

  function onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>) {
    const f = shortcutFormat(e);
    if (f) {
      e.preventDefault();
      format(f);
    }
  }

  async function insertImages(files: File[]) {
    for (const file of files) {
      const at = current();
      const up = await uploadImage(file, t);
      if (!up) continue;
      // the text may have changed while uploading: insert at the caret as it is now
      const el = ref.current;
      const text = el?.value ?? value;
      const pos = el ? { start: el.selectionStart, end: el.selectionEnd } : at;
      apply(imageMarkdown({ text, ...pos }, t('editor.imageAlt'), up.url));
    }
  }

  function imagesOf(list: FileList | null | undefined): File[] {
    return Array.from(list ?? []).filter((f) => f.type.startsWith('image/'));
  }

  function onPaste(e: ClipboardEvent<HTMLTextAreaElement>) {
    const files = imagesOf(e.clipboardData?.files);
    if (files.length === 0) return;
    e.preventDefault();
    void insertImages(files);
  }

  function onDrop(e: DragEvent<HTMLTextAreaElement>) {
    const files = imagesOf(e.dataTransfer?.files);
    if (files.length === 0) return;
    e.preventDefault();
    void insertImages(files);
  }

  return (
    <div className="md-field">
      <div className="md-field__toolbar" role="toolbar" aria-label={t('editor.toolbar')} aria-controls={id}>
        {TOOLS.map((tool) => (
          <button
            key={tool.format}
            type="button"
            className="md-field__tool"
            aria-label={t(tool.label)}
            title={tool.keys ? `${t(tool.label)} (${tool.keys.replace('Control', 'Ctrl')})` : t(tool.label)}
            aria-keyshortcuts={tool.keys}
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => format(tool.format)}
          >
            <span aria-hidden="true">{tool.text}</span>
          </button>
        ))}
      </div>
      <textarea
        ref={ref}
        id={id}
        className="md-field__text field-input"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={onKeyDown}
        onPaste={onPaste}
        onDrop={onDrop}
        spellCheck
        rows={18}
      />
      <p className="md-field__hint">{t('editor.imageHint')}</p>
    </div>
  );
}
