import { useEffect, useId, useRef, type ReactNode } from 'react';

interface Props {
  title: string;
  onClose: () => void;
  children: ReactNode;
  role?: 'dialog' | 'alertdialog';
  className?: string;
  /** Label of a × button in the header; none when omitted. */
  closeLabel?: string;
}

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), iframe, audio[controls], video[controls], [tabindex]:not([tabindex="-1"])';

/**
 * A modal layer: focus moves in (to [data-autofocus] or the first control) and is kept inside,
 * Escape or a click on the backdrop closes it, and focus goes back where it was.
 */
export function Dialog({ title, onClose, children, role = 'dialog', className, closeLabel }: Props) {
  const titleId = useId();
  const box = useRef<HTMLDivElement>(null);
  const close = useRef(onClose);
  close.current = onClose;

  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    const el = box.current;
    (el?.querySelector<HTMLElement>('[data-autofocus]') ?? el?.querySelector<HTMLElement>(FOCUSABLE))?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.stopPropagation();
        close.current();
        return;
      }
      if (e.key !== 'Tab' || !el) return;
      const items = [...el.querySelectorAll<HTMLElement>(FOCUSABLE)];
      if (!items.length) return;
      const first = items[0];
      const last = items[items.length - 1];
      if (e.shiftKey && document.activeElement === first) {
        e.preventDefault();
        last.focus();
      } else if (!e.shiftKey && document.activeElement === last) {
        e.preventDefault();
        first.focus();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      before?.focus?.();
    };
  }, []);

  return (
    <div
      className="files-dialog__backdrop"
      onMouseDown={(e) => {
        if (e.target === e.currentTarget) onClose();
      }}
    >
      <div ref={box} className={['files-dialog', className].filter(Boolean).join(' ')} role={role} aria-modal="true" aria-labelledby={titleId}>
        <header className="files-dialog__header">
          <h2 id={titleId} className="files-dialog__title">
            {title}
          </h2>
          {closeLabel ? (
            <button type="button" className="btn btn--ghost files-dialog__close" aria-label={closeLabel} onClick={onClose} data-autofocus>
              ×
            </button>
          ) : null}
        </header>
        {children}
      </div>
    </div>
  );
}
