import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api';
import { fetchUsers, type AdminUser } from '../api';

type State = { kind: 'loading' } | { kind: 'error'; text: string } | { kind: 'ready'; users: AdminUser[] };

/** The admin panel's user list (spec §2, §8), for admins only — the page checks the role. */
export function AdminPanel() {
  const { t } = useTranslation();
  const [state, setState] = useState<State>({ kind: 'loading' });

  useEffect(() => {
    let alive = true;
    fetchUsers()
      .then((data) => {
        if (!alive) return;
        if (!Array.isArray(data)) setState({ kind: 'error', text: t('auth.errors.usersFormat') });
        else setState({ kind: 'ready', users: data as AdminUser[] });
      })
      .catch((err: unknown) => {
        if (!alive) return;
        // The server answering with an error status is a failed fetch; anything else — no answer
        // at all, or a 2xx that is not JSON (a proxy's page) — gets the generic text.
        const fetchFailed = err instanceof ApiError && err.status >= 400;
        setState({ kind: 'error', text: t(fetchFailed ? 'auth.errors.usersFetch' : 'auth.errors.usersGeneric') });
      });
    return () => {
      alive = false;
    };
  }, [t]);

  return (
    <section className="profile-section" aria-labelledby="admin-users-title">
      <h2 id="admin-users-title" className="profile-section__title">
        {t('auth.admin.title')}
      </h2>
      {state.kind === 'loading' ? <p role="status">{t('auth.admin.loading')}</p> : null}
      {state.kind === 'error' ? (
        <p className="auth-form__error" role="alert">
          {state.text}
        </p>
      ) : null}
      {state.kind === 'ready' && state.users.length === 0 ? <p>{t('auth.admin.empty')}</p> : null}
      {state.kind === 'ready' && state.users.length > 0 ? (
        <div className="admin-users">
          {/* Explicit roles: on a phone the CSS lays rows out as cards, and a table whose display
              changed may lose its semantics in some browsers. */}
          <table className="admin-users__table" role="table">
            <thead role="rowgroup">
              <tr role="row">
                <th scope="col" role="columnheader">
                  {t('auth.admin.email')}
                </th>
                <th scope="col" role="columnheader">
                  {t('auth.admin.name')}
                </th>
                <th scope="col" role="columnheader">
                  {t('auth.admin.role')}
                </th>
              </tr>
            </thead>
            <tbody role="rowgroup">
              {state.users.map((u) => (
                <tr key={u.id} role="row">
                  <td className="admin-users__email" role="cell">
                    {u.email}
                  </td>
                  <td className="admin-users__name" role="cell">
                    {u.name ?? ''}
                  </td>
                  <td role="cell">
                    <span className={u.role === 'admin' ? 'badge badge--admin' : 'badge'}>
                      {u.role === 'admin' ? t('auth.admin.roleAdmin') : t('auth.admin.roleUser')}
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}

/** What a signed-in non-admin sees instead of the panel. */
export function AccessDenied() {
  const { t } = useTranslation();
  return (
    <section className="profile-section" aria-labelledby="access-denied-title">
      <h2 id="access-denied-title" className="profile-section__title">
        {t('auth.errors.accessDenied')}
      </h2>
      <p>{t('auth.errors.adminOnly')}</p>
    </section>
  );
}
