import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/api';
import { toast } from '../../../lib/toast';
import { FILES_NS } from '../i18n';

/** How long the "Copied!" tooltip stays. */
export const COPIED_TOOLTIP_MS = 2000;

async function copyText(text: string): Promise<void> {
  if (navigator.clipboard?.writeText) {
    await navigator.clipboard.writeText(text);
    return;
  }
  // Older browsers: a selected, off-screen textarea and the copy command.
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  const ok = document.execCommand('copy');
  area.remove();
  if (!ok) throw new Error('the browser refused to copy');
}

/** Copies a link to the clipboard, with a 2 s tooltip and a toast either way. */
export function CopyLinkButton({ url, name }: { url: string; name: string }) {
  const { t } = useTranslation(FILES_NS);
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const copy = async () => {
    try {
      await copyText(url);
    } catch (err) {
      toast.error(t('toast.copyError', { message: errorMessage(err) }));
      return;
    }
    setCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), COPIED_TOOLTIP_MS);
    toast.success(t('toast.copied'));
  };

  return (
    <span className="files-tooltip-anchor">
      <button type="button" className="btn files-action" onClick={copy} aria-describedby={undefined} title={url}>
        {t('actions.copy')}
        <span className="visually-hidden"> {name}</span>
      </button>
      {copied ? (
        <span role="tooltip" className="files-tooltip">
          {t('actions.copied')}
        </span>
      ) : null}
    </span>
  );
}
