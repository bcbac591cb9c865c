import { useId, type ReactNode } from 'react';
import { Modal } from './Modal';

export interface ConfirmDialogProps {
  /** The question, e.g. "Delete file?"; it names the dialog. */
  title: string;
  /** What will happen, e.g. "“a.png” will be deleted for everyone."; it describes the dialog. */
  text: ReactNode;
  confirmLabel: string;
  cancelLabel: string;
  /** While the action runs the confirm button is disabled, so it cannot be sent twice. */
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * A confirmation (spec: "dialog open, then confirm or cancel") as an alertdialog. Cancel has the
 * focus, so Enter or Space right after opening never confirms a destructive action; Escape and a
 * press on the backdrop cancel.
 */
export function ConfirmDialog({ title, text, confirmLabel, cancelLabel, busy = false, onConfirm, onCancel }: ConfirmDialogProps) {
  const textId = useId();
  return (
    <Modal title={title} onClose={onCancel} role="alertdialog" className="modal--confirm" describedBy={textId}>
      <p id={textId} className="modal__text">
        {text}
      </p>
      <div className="modal__actions">
        <button type="button" className="btn" onClick={onCancel} data-autofocus>
          {cancelLabel}
        </button>
        <button type="button" className="btn btn--danger" onClick={onConfirm} disabled={busy}>
          {confirmLabel}
        </button>
      </div>
    </Modal>
  );
}
