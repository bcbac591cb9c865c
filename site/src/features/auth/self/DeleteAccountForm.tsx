import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog';
import { TextField } from '../../../components/ui/Field';
import { errorText } from '../errors';
import { codeRequired, useDeleteAccount } from './api';
import { SELF_NS } from './i18n';

/**
 * Deleting the account: the password (and the second factor's code when the server asks for it),
 * a choice between deleting the files and passing them to the administrators, and a confirmation.
 */
export function DeleteAccountForm() {
  const { t } = useTranslation(SELF_NS);
  const { t: tc } = useTranslation();
  const id = useId();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [deleteFiles, setDeleteFiles] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const del = useDeleteAccount();
  const needsCode = del.isError && codeRequired(del.error);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (password) setConfirming(true);
  };
  const onConfirm = () =>
    del.mutate(
      { password, deleteFiles, ...(code ? { code } : {}) },
      {
        onSuccess: () => navigate('/', { replace: true }),
        onSettled: () => setConfirming(false),
      },
    );

  return (
    <form className="auth-form self-form self-form--danger" onSubmit={onSubmit} aria-labelledby={`${id}-title`} noValidate>
      <h2 id={`${id}-title`} className="auth-form__title">{t('delete.title')}</h2>
      <p className="profile-section__hint">{t('delete.hint')}</p>
      <fieldset className="self-form__choice">
        <legend>{t('delete.files')}</legend>
        <label>
          <input type="radio" name="deleteFiles" checked={!deleteFiles} onChange={() => setDeleteFiles(false)} />
          {t('delete.keepFiles')}
        </label>
        <label>
          <input type="radio" name="deleteFiles" checked={deleteFiles} onChange={() => setDeleteFiles(true)} />
          {t('delete.deleteFiles')}
        </label>
      </fieldset>
      <div className="auth-form__field">
        <label htmlFor={`${id}-password`}>{t('password')}</label>
        <TextField id={`${id}-password`} name="password" type="password" autoComplete="current-password" required
          value={password} onChange={(e) => setPassword(e.target.value)} />
      </div>
      {needsCode || code ? (
        <div className="auth-form__field">
          <label htmlFor={`${id}-code`}>{t('code')}</label>
          <TextField id={`${id}-code`} name="code" autoComplete="one-time-code" value={code}
            onChange={(e) => setCode(e.target.value)} />
        </div>
      ) : null}
      {del.isError ? <p className="auth-form__error" role="alert">{errorText(del.error, tc, t('failed'))}</p> : null}
      <button type="submit" className="btn btn--danger" disabled={!password || del.isPending}>{t('delete.submit')}</button>
      {confirming ? (
        <ConfirmDialog
          title={t('delete.confirmTitle')}
          text={deleteFiles ? t('delete.confirmWithFiles') : t('delete.confirmKeepFiles')}
          confirmLabel={t('delete.confirm')}
          cancelLabel={t('cancel')}
          busy={del.isPending}
          onConfirm={onConfirm}
          onCancel={() => setConfirming(false)}
        />
      ) : null}
    </form>
  );
}
