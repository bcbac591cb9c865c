import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { getToken } from '../../../lib/api';
import { useChangePassword } from '../api';
import { errorText } from '../errors';

/**
 * The settings view's change-password form: both fields required;
 * 'Не авторизовано' without a token; the server's message or 'Помилка зміни пароля' on failure;
 * 'Пароль успішно змінено' on success, and the form clears. On success the server's message is
 * its one fixed English API text, so the interface says it in its own language instead; a
 * failure can be anything, so a message the interface has no text for is shown as sent.
 */
export function ChangePasswordForm() {
  const { t } = useTranslation();
  const id = useId();
  const [oldPassword, setOldPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  // What the form itself refused before sending; the server's answer is the mutation's.
  const [refused, setRefused] = useState<string | null>(null);
  const change = useChangePassword();

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    change.reset();
    setRefused(null);
    if (!oldPassword || !newPassword) {
      setRefused(t('auth.form.required'));
      return;
    }
    if (!getToken()) {
      setRefused(t('auth.errors.unauthorized'));
      return;
    }
    change.mutate(
      { oldPassword, newPassword },
      {
        onSuccess: () => {
          setOldPassword('');
          setNewPassword('');
        },
      },
    );
  };

  let status: { kind: 'error' | 'success'; text: string } | null = null;
  if (refused) status = { kind: 'error', text: refused };
  else if (change.isError) status = { kind: 'error', text: errorText(change.error, t, t('auth.errors.changeFailed')) };
  else if (change.isSuccess) status = { kind: 'success', text: t('auth.settings.success') };

  const field = (name: string, label: string, autoComplete: string, value: string, set: (v: string) => void) => (
    <div className="auth-form__field">
      <label htmlFor={`${id}-${name}`}>{label}</label>
      <input className="field-input"
        id={`${id}-${name}`}
        name={name}
        type="password"
        autoComplete={autoComplete}
        required
        value={value}
        onChange={(e) => set(e.target.value)}
      />
    </div>
  );

  return (
    <form className="auth-form" onSubmit={onSubmit} aria-label={t('auth.settings.title')} noValidate>
      <h2 className="auth-form__title">{t('auth.settings.title')}</h2>
      {field('oldPassword', t('auth.settings.oldPassword'), 'current-password', oldPassword, setOldPassword)}
      {field('newPassword', t('auth.settings.newPassword'), 'new-password', newPassword, setNewPassword)}
      {status ? (
        <p className={`auth-form__${status.kind}`} role={status.kind === 'error' ? 'alert' : 'status'}>
          {status.text}
        </p>
      ) : null}
      <button type="submit" className="btn btn--primary" disabled={change.isPending}>
        {change.isPending ? t('auth.form.submitting') : t('auth.settings.submit')}
      </button>
    </form>
  );
}
