import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRegistrationPolicy } from '../api';
import { useCreateInvite, useDeleteInvite, useInvites } from './api';
import { ACCOUNT_NS } from './i18n';
import { ListState } from './ListState';
import { Select } from '../../../components/ui/Field';

const VALIDITY_DAYS = [1, 7, 30] as const;

/** The admin panel's invitations: make one (its code shown once), list them, withdraw. */
export function InvitesPanel() {
  const { t, i18n } = useTranslation(ACCOUNT_NS);
  const id = useId();
  const policy = useRegistrationPolicy().data?.policy;
  const invites = useInvites();
  const create = useCreateInvite();
  const withdraw = useDeleteInvite();
  const [days, setDays] = useState<number>(7);
  const [code, setCode] = useState<string | null>(null);
  const fmt = (iso?: string) => (iso ? new Date(iso).toLocaleString(i18n.language) : '');

  return (
    <section className="profile-section invites" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="profile-section__title">
        {t('invites.title')}
      </h3>
      <p className="profile-section__hint">{t('invites.hint')}</p>
      {policy ? <p>{t('invites.policy', { policy: t(`invites.policies.${policy}`) })}</p> : null}
      <div className="invites__create">
        <label htmlFor={`${id}-days`}>{t('invites.validFor')}</label>
        <Select id={`${id}-days`} value={days} onChange={(e) => setDays(Number(e.target.value))}>
          {VALIDITY_DAYS.map((d) => (
            <option key={d} value={d}>
              {t('invites.days', { count: d })}
            </option>
          ))}
        </Select>
        <button
          type="button"
          className="btn btn--primary"
          disabled={create.isPending}
          onClick={() => create.mutate(`${days}d`, { onSuccess: (inv) => setCode(inv.code) })}
        >
          {t('invites.create')}
        </button>
      </div>
      {code ? (
        <div className="invites__code" role="status">
          <p>
            {t('invites.newCode')}: <code>{code}</code>
          </p>
          <p className="profile-section__hint">{t('invites.codeHint')}</p>
        </div>
      ) : null}
      <ListState query={invites} empty={t('invites.empty')}>
        {(l) => (
          <ul className="invites__list">
            {l.map((inv) => (
              <li key={inv.id} className="invites__item">
                <code>{inv.id}</code>
                <span>
                  {t('invites.expires')}: {fmt(inv.expiresAt)}
                </span>
                <span>{inv.usedBy ? t('invites.usedBy', { email: inv.usedBy }) : t('invites.unused')}</span>
                {inv.usedBy ? null : (
                  <button type="button" className="btn" disabled={withdraw.isPending} onClick={() => withdraw.mutate(inv.id)}>
                    {t('invites.withdraw')}
                  </button>
                )}
              </li>
            ))}
          </ul>
        )}
      </ListState>
    </section>
  );
}
