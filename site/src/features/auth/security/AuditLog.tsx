import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAudit } from './api';
import { auditDetails, auditParty } from './auditText';
import { ACCOUNT_NS } from './i18n';
import { ListState } from './ListState';
import { Select } from '../../../components/ui/Field';

const TYPES = ['', 'signin', 'signin.failed', '2fa', 'password.changed', 'role.changed', 'sessions.revoked', 'user', 'invite.created'] as const;

/** The admin panel's audit log: newest first, filtered by event type, paged backwards. */
export function AuditLog() {
  const { t, i18n } = useTranslation(ACCOUNT_NS);
  const id = useId();
  const [type, setType] = useState('');
  const [before, setBefore] = useState<number | null>(null);
  const audit = useAudit(type, before);
  // Event types hold dots ("signin.failed"), which i18next reads as nesting: keys use '_'.
  const typeName = (x: string) => (x ? t(`audit.types.${x.replaceAll('.', '_')}`, { defaultValue: x }) : t('audit.all'));
  const filterName = (x: string) => (x === '2fa' || x === 'user' ? t(`audit.groups.${x}`) : typeName(x));

  return (
    <section className="profile-section audit" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="profile-section__title">
        {t('audit.title')}
      </h3>
      <label htmlFor={`${id}-type`}>{t('audit.type')}</label>{' '}
      <Select
        id={`${id}-type`}
        value={type}
        onChange={(e) => {
          setType(e.target.value);
          setBefore(null);
        }}
      >
        {TYPES.map((x) => (
          <option key={x} value={x}>
            {filterName(x)}
          </option>
        ))}
      </Select>
      <ListState query={audit} empty={t('audit.empty')} isEmpty={(page) => page.events.length === 0}>
        {({ events }) => (
          <div className="audit__table-wrap" tabIndex={0} role="region" aria-label={t('audit.title')}>
            <table className="audit__table" aria-labelledby={`${id}-title`}>
              <thead>
                <tr>
                  <th scope="col">{t('audit.time')}</th>
                  <th scope="col">{t('audit.event')}</th>
                  <th scope="col">{t('audit.actor')}</th>
                  <th scope="col">{t('audit.target')}</th>
                  <th scope="col">{t('audit.ip')}</th>
                  <th scope="col">{t('audit.details')}</th>
                </tr>
              </thead>
              <tbody>
                {events.map((e) => (
                  <tr key={e.id}>
                    <td>{new Date(e.at).toLocaleString(i18n.language)}</td>
                    <td>{typeName(e.type)}</td>
                    <td>{auditParty(e.actor, t)}</td>
                    <td>{auditParty(e.target, t)}</td>
                    <td>{e.ip}</td>
                    <td>{auditDetails(e.details, t, i18n.language)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </ListState>
      <div className="audit__pager">
        {before !== null ? (
          <button type="button" className="btn" onClick={() => setBefore(null)}>
            {t('audit.newest')}
          </button>
        ) : null}
        {audit.data?.next ? (
          <button type="button" className="btn" onClick={() => setBefore(audit.data?.next ?? null)}>
            {t('audit.older')}
          </button>
        ) : null}
      </div>
    </section>
  );
}
