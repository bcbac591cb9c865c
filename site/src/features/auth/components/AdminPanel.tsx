import { useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog';
import { ApiError, errorMessage } from '../../../lib/api';
import { useAuth } from '../../../lib/auth';
import { pageCount } from '../../../lib/pagination';
import { useDebouncedValue } from '../../../lib/useDebouncedValue';
import type { AdminUser } from '../api';
import { USER_SEARCH_DEBOUNCE_MS, USERS_PER_PAGE, useAdminAction, useAdminUsers, type AdminAction } from '../security/api';
import { ACCOUNT_NS } from '../security/i18n';
import { ListState } from '../security/ListState';

/**
 * An e-mail with its line-break opportunities where a reader expects them: after the "@" and
 * before each dot ("olena.kovalenko@" / "mail" / ".example" / ".com"), so a narrow screen never
 * cuts it mid-word while a part still fits on a line.
 */
export function emailWithBreaks(email: string): ReactNode[] {
  const out: ReactNode[] = [];
  email.split(/(?=\.)|(?<=@)/).forEach((part, i) => {
    if (i > 0) out.push(<wbr key={`b${i}`} />);
    out.push(part);
  });
  return out;
}

/** The spec's error text for a failed user list (§8). */
function listError(err: unknown): string {
  // The server answering with an error status is a failed fetch; anything else — no answer at
  // all, a 2xx that is not JSON (a proxy's page), or not an array — gets its own text.
  if (err instanceof Error && err.message === 'usersFormat') return 'auth.errors.usersFormat';
  return err instanceof ApiError && err.status >= 400 ? 'auth.errors.usersFetch' : 'auth.errors.usersGeneric';
}

/**
 * The admin panel's users and their management: search, paging, change role,
 * end sessions, reset two-factor sign-in, delete (files kept or deleted). The page checks the
 * role; the server checks it again for every action, and refuses them on the admin's own account.
 */
export function AdminPanel() {
  const { t } = useTranslation();
  const { t: ta } = useTranslation(ACCOUNT_NS);
  const { user: me } = useAuth();
  const id = useId();
  const [search, setSearch] = useState('');
  const debounced = useDebouncedValue(search.trim(), USER_SEARCH_DEBOUNCE_MS);
  const [page, setPage] = useState(1);
  const users = useAdminUsers(debounced, page);
  const action = useAdminAction();
  const [deleting, setDeleting] = useState<AdminUser | null>(null);
  const [keepFiles, setKeepFiles] = useState(true);
  const pages = pageCount(users.data?.total ?? 0, USERS_PER_PAGE);

  const run = (a: AdminAction) => action.mutate(a, { onSuccess: () => setDeleting(null) });

  return (
    <section className="profile-section" aria-labelledby="admin-users-title">
      <h2 id="admin-users-title" className="profile-section__title">
        {t('auth.admin.title')}
      </h2>
      <div className="admin-users__search">
        <label htmlFor={`${id}-search`}>{ta('admin.search')}</label>
        <input
          className="field-input"
          id={`${id}-search`}
          type="search"
          value={search}
          onChange={(e) => {
            setSearch(e.target.value);
            setPage(1);
          }}
        />
      </div>
      {action.error ? (
        <p className="auth-form__error" role="alert">
          {ta('admin.failed', { message: errorMessage(action.error) })}
        </p>
      ) : null}
      <ListState query={users} error={(err) => t(listError(err))} empty={t('auth.admin.empty')} isEmpty={(d) => d.users.length === 0}>
        {({ users: list }) => (
          <div className="admin-users">
            {/* Explicit roles: on a phone the CSS lays rows out as cards, and a table whose display
                changed may lose its semantics in some browsers. */}
            <table className="admin-users__table" role="table" aria-labelledby="admin-users-title">
              <thead role="rowgroup">
                <tr role="row">
                  {[t('auth.admin.email'), t('auth.admin.name'), t('auth.admin.role'), ta('admin.actions')].map((h) => (
                    <th key={h} scope="col" role="columnheader">
                      {h}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody role="rowgroup">
                {list.map((u) => {
                  const self = me?.id === u.id;
                  return (
                    <tr key={u.id} role="row">
                      <td className="admin-users__email" role="cell">
                        {emailWithBreaks(u.email)}
                      </td>
                      <td className="admin-users__name" role="cell">
                        {u.name ?? ''}
                      </td>
                      <td role="cell">
                        <span className={u.role === 'admin' ? 'badge badge--admin' : 'badge'}>
                          {u.role === 'admin' ? t('auth.admin.roleAdmin') : t('auth.admin.roleUser')}
                        </span>
                      </td>
                      <td role="cell" className="admin-users__actions">
                        {self ? (
                          <span className="profile-section__hint">{ta('admin.self')}</span>
                        ) : (
                          <>
                            <button
                              type="button"
                              className="btn"
                              disabled={action.isPending}
                              onClick={() => run({ kind: 'role', id: u.id, role: u.role === 'admin' ? 'user' : 'admin' })}
                            >
                              {u.role === 'admin' ? ta('admin.makeUser') : ta('admin.makeAdmin')}
                            </button>
                            <button type="button" className="btn" disabled={action.isPending} onClick={() => run({ kind: 'revoke', id: u.id })}>
                              {ta('admin.revoke')}
                            </button>
                            <button type="button" className="btn" disabled={action.isPending} onClick={() => run({ kind: 'reset2fa', id: u.id })}>
                              {ta('admin.reset2fa')}
                            </button>
                            <button type="button" className="btn btn--danger" disabled={action.isPending} onClick={() => setDeleting(u)}>
                              {ta('admin.delete')}
                            </button>
                          </>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      </ListState>
      {pages > 1 ? (
        <nav className="admin-users__pager" aria-label={ta('admin.pageOf', { page, pages })}>
          <button type="button" className="btn" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
            {ta('admin.prev')}
          </button>
          <span>{ta('admin.pageOf', { page, pages })}</span>
          <button type="button" className="btn" disabled={page >= pages} onClick={() => setPage((p) => p + 1)}>
            {ta('admin.next')}
          </button>
        </nav>
      ) : null}
      {deleting ? (
        <ConfirmDialog
          title={ta('admin.deleteTitle', { email: deleting.email })}
          text={
            <>
              {ta('admin.deleteText')}
              <span className="admin-users__files" role="radiogroup">
                <label>
                  <input type="radio" name={`${id}-files`} checked={keepFiles} onChange={() => setKeepFiles(true)} />{' '}
                  {ta('admin.keepFiles')}
                </label>
                <label>
                  <input type="radio" name={`${id}-files`} checked={!keepFiles} onChange={() => setKeepFiles(false)} />{' '}
                  {ta('admin.deleteFiles')}
                </label>
              </span>
            </>
          }
          confirmLabel={ta('admin.confirmDelete')}
          cancelLabel={ta('admin.cancel')}
          busy={action.isPending}
          onConfirm={() => run({ kind: 'delete', id: deleting.id, files: keepFiles ? 'keep' : 'delete' })}
          onCancel={() => setDeleting(null)}
        />
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
