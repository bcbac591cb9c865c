import { useTranslation } from 'react-i18next';
import { BLOG_NS } from '../i18n';
import { Modal } from './Modal';

interface Props {
  name: string;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/** "Delete this article?" with confirm and cancel; cancel has the focus, so Enter is safe. */
export function ConfirmDialog({ name, busy, onConfirm, onCancel }: Props) {
  const { t } = useTranslation(BLOG_NS);
  return (
    <Modal title={t('confirm.title')} onClose={onCancel} role="alertdialog" className="blog-modal--confirm">
      <p className="blog-modal__text">{t('confirm.text', { name })}</p>
      <div className="blog-modal__actions">
        <button type="button" className="btn" onClick={onCancel} data-autofocus>
          {t('confirm.cancel')}
        </button>
        <button type="button" className="btn btn--danger" onClick={onConfirm} disabled={busy}>
          {t('confirm.confirm')}
        </button>
      </div>
    </Modal>
  );
}
