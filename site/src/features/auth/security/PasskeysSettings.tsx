import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useAddPasskey, usePasskeys, useRemovePasskey } from './api';
import { ACCOUNT_NS } from './i18n';
import { ListState } from './ListState';
import { onIPAddress, passkeysSupported } from './webauthn';

/** The profile's passkeys: named, listed, removable, and a form to add one. */
export function PasskeysSettings() {
  const { t, i18n } = useTranslation(ACCOUNT_NS);
  const id = useId();
  const list = usePasskeys();
  const remove = useRemovePasskey();
  const [name, setName] = useState(() => t('passkeys.defaultName'));
  const add = useAddPasskey();
  const when = (iso?: string) => (iso ? new Date(iso).toLocaleString(i18n.language) : t('passkeys.never'));
  const onAdd = (e: FormEvent) => {
    e.preventDefault();
    add.mutate(name.trim() || t('passkeys.defaultName'));
  };

  return (
    <section className="profile-section passkeys" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="profile-section__title">
        {t('passkeys.title')}
      </h3>
      <p className="profile-section__hint">{t('passkeys.hint')}</p>
      <ListState query={list} empty={t('passkeys.empty')}>
        {(l) => (
          <ul className="sessions__list" aria-label={t('passkeys.title')}>
            {l.map((p) => (
              <li key={p.id} className="sessions__item">
                <strong>{p.name}</strong>
                <dl className="sessions__meta">
                  <dt>{t('passkeys.created')}</dt>
                  <dd>{when(p.createdAt)}</dd>
                  <dt>{t('passkeys.lastUsed')}</dt>
                  <dd>{when(p.lastUsedAt)}</dd>
                </dl>
                <button
                  type="button"
                  className="btn"
                  disabled={remove.isPending}
                  onClick={() => remove.mutate(p.id)}
                  aria-label={`${t('passkeys.remove')}: ${p.name}`}
                >
                  {t('passkeys.remove')}
                </button>
              </li>
            ))}
          </ul>
        )}
      </ListState>
      {passkeysSupported() && onIPAddress() ? (
        <p>{t('passkeys.ipHost')}</p>
      ) : passkeysSupported() ? (
        <form className="auth-form twofactor__form" onSubmit={onAdd}>
          <div className="auth-form__field">
            <label htmlFor={`${id}-name`}>{t('passkeys.name')}</label>
            <input className="field-input" id={`${id}-name`} value={name} maxLength={64} onChange={(e) => setName(e.target.value)} />
          </div>
          {add.error ? (
            <p className="auth-form__error" role="alert">
              {t('passkeys.error')}
            </p>
          ) : null}
          <button type="submit" className="btn btn--primary" disabled={add.isPending}>
            {t('passkeys.add')}
          </button>
        </form>
      ) : (
        <p>{t('passkeys.unsupported')}</p>
      )}
    </section>
  );
}
