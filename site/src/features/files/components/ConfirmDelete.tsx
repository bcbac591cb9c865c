import { useTranslation } from 'react-i18next';
import { FILES_NS } from '../i18n';
import { Dialog } from './Dialog';

interface Props {
  name: string;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/** The delete confirmation (spec §4): open, then confirm or cancel. Cancel has the focus. */
export function ConfirmDelete({ name, busy, onConfirm, onCancel }: Props) {
  const { t } = useTranslation(FILES_NS);
  return (
    <Dialog title={t('confirm.title')} onClose={onCancel} role="alertdialog" className="files-dialog--confirm">
      <p>{t('confirm.text', { name })}</p>
      <div className="files-dialog__actions">
        <button type="button" className="btn" onClick={onCancel} data-autofocus>
          {t('confirm.cancel')}
        </button>
        <button type="button" className="btn btn--danger" onClick={onConfirm} disabled={busy}>
          {t('confirm.confirm')}
        </button>
      </div>
    </Dialog>
  );
}
