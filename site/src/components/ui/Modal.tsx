import { useEffect, useId, useRef, type ReactNode } from 'react';
import './Modal.css';

export interface ModalProps {
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** 'alertdialog' for confirmations that interrupt the user. */
  role?: 'dialog' | 'alertdialog';
  /** Label of a × button in the header; none when omitted. */
  closeLabel?: string;
  /** Extra class on the dialog box, e.g. a width modifier (modal--confirm) or a feature's own. */
  className?: string;
  /**
   * Whether a press on the backdrop closes the dialog (default true). A form with typed text passes
   * false, so a stray click beside it does not throw the text away; Escape and the buttons still close.
   */
  closeOnBackdrop?: boolean;
  /** id of the element that describes the dialog (aria-describedby), e.g. a confirmation's question. */
  describedBy?: string;
}

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), iframe, audio[controls], video[controls], [tabindex]:not([tabindex="-1"])';

/**
 * The one modal dialog of the site. On open focus moves into it: to the element marked
 * data-autofocus, else the first form field (a form is opened to be filled in), else the first
 * focusable element. Tab and Shift+Tab stay inside, Escape closes it, so does a press on the
 * backdrop unless closeOnBackdrop is false, and on close focus returns to where it was. The box
 * is aria-modal and named by its title.
 */
export function Modal({ title, onClose, children, role = 'dialog', closeLabel, className, closeOnBackdrop = true, describedBy }: ModalProps) {
  const titleId = useId();
  const box = useRef<HTMLDivElement>(null);
  // The latest onClose, so the key listener is set up once per opening and never sees a stale one.
  const close = useRef(onClose);
  close.current = onClose;

  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    const el = box.current;
    const first =
      el?.querySelector<HTMLElement>('[data-autofocus]') ??
      el?.querySelector<HTMLElement>('input:not([disabled]), textarea:not([disabled]), select:not([disabled])') ??
      el?.querySelector<HTMLElement>(FOCUSABLE);
    first?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.stopPropagation();
        close.current();
        return;
      }
      if (e.key !== 'Tab' || !el) return;
      const items = [...el.querySelectorAll<HTMLElement>(FOCUSABLE)];
      if (items.length === 0) return;
      const head = items[0];
      const tail = items[items.length - 1];
      if (e.shiftKey && (document.activeElement === head || !el.contains(document.activeElement))) {
        e.preventDefault();
        tail.focus();
      } else if (!e.shiftKey && (document.activeElement === tail || !el.contains(document.activeElement))) {
        e.preventDefault();
        head.focus();
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
      className="modal__backdrop"
      // mousedown, not click: a text selection that starts in the box and ends outside is no close.
      onMouseDown={(e) => {
        if (closeOnBackdrop && e.target === e.currentTarget) onClose();
      }}
    >
      <div
        ref={box}
        className={['modal', className].filter(Boolean).join(' ')}
        role={role}
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={describedBy}
      >
        <header className="modal__header">
          <h2 id={titleId} className="modal__title">
            {title}
          </h2>
          {closeLabel ? (
            <button type="button" className="btn btn--ghost modal__close" aria-label={closeLabel} onClick={onClose}>
              ×
            </button>
          ) : null}
        </header>
        {children}
      </div>
    </div>
  );
}
