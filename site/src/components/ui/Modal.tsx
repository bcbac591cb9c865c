import { useId, useRef, type ReactNode } from 'react';
import { useFocusTrap } from '../../lib/useFocusTrap';
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

/**
 * The one modal dialog of the site. The focus rules are lib/useFocusTrap's: on open focus moves
 * into it (data-autofocus, else the first form field, else the first focusable element), Tab and
 * Shift+Tab stay inside, the rest of the page is inert, Escape closes it, and on close focus returns
 * to where it was. A press on the backdrop closes it unless closeOnBackdrop is false. The box is
 * aria-modal and named by its title. It never grows past the window: the title stays on top, and a
 * body marked .modal__body (or the dialog's content) scrolls, so a form's actions (.modal__actions
 * below its .modal__body) stay in view on an 800 px tall window.
 */
export function Modal({ title, onClose, children, role = 'dialog', closeLabel, className, closeOnBackdrop = true, describedBy }: ModalProps) {
  const titleId = useId();
  const box = useRef<HTMLDivElement>(null);
  useFocusTrap(box, true, { onEscape: onClose });

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
