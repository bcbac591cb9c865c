import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import {
  fetchNotifications,
  fetchSettings,
  markRead,
  NOTIFICATION_KINDS,
  notificationKeys,
  saveSettings,
  type Notification,
  type NotificationSettings,
} from './api';
import { NOTIFICATIONS_NS } from './i18n';
import './notifications.css';

interface Data {
  by?: { name?: string };
  name?: string;
  text?: string;
  url?: string;
  where?: string;
}

/** Where a notification leads: its own same-site url, the chat for a chat mention. */
function targetOf(n: Notification): string | null {
  const d = (n.data ?? {}) as Data;
  if (typeof d.url === 'string' && d.url.startsWith('/') && !d.url.startsWith('//')) return d.url;
  if (n.kind === 'mention' && d.where === 'chat') return '/chat';
  return null;
}

/** The profile's notifications: newest first, mark one or all read, and which kinds to get. */
export function NotificationList() {
  const { t, i18n } = useTranslation(NOTIFICATIONS_NS);
  const qc = useQueryClient();
  const list = useInfiniteQuery({
    queryKey: notificationKeys.list(),
    queryFn: ({ pageParam, signal }) => fetchNotifications(pageParam, signal),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => last.next || undefined,
  });
  const read = useMutation({
    mutationFn: markRead,
    onSuccess: ({ unread }) => {
      qc.setQueryData(notificationKeys.unread(), unread);
      void qc.invalidateQueries({ queryKey: notificationKeys.list() });
    },
  });
  const items = list.data?.pages.flatMap((p) => p.items) ?? [];
  const unread = list.data?.pages[0]?.unread ?? 0;
  const when = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });

  return (
    <section className="profile-section notify-list" aria-labelledby="profile-notifications-title">
      <div className="notify-list__head">
        <h2 id="profile-notifications-title" className="profile-section__title">
          {t('title')}
        </h2>
        <button type="button" className="btn" disabled={unread === 0 || read.isPending} onClick={() => read.mutate({ all: true })}>
          {t('readAll')}
        </button>
      </div>
      {list.isPending ? <p>{t('loading')}</p> : null}
      {list.isError ? <p role="alert">{t('loadFailed')}</p> : null}
      {list.isSuccess && items.length === 0 ? <p className="notify-list__empty">{t('empty')}</p> : null}
      <ul className="notify-list__items">
        {items.map((n) => {
          const d = (n.data ?? {}) as Data;
          const name = d.by?.name ?? d.name ?? '';
          const target = targetOf(n);
          const text = t(`kinds.${n.kind.replace('.', '_')}`, { name, defaultValue: t('generic') });
          return (
            <li key={n.id} className={n.read ? 'notify-item' : 'notify-item notify-item--unread'}>
              <div className="notify-item__body">
                <p className="notify-item__text">{target ? <Link to={target}>{text}</Link> : text}</p>
                {d.text ? <p className="notify-item__quote">{d.text}</p> : null}
                <time className="notify-item__time" dateTime={n.createdAt}>
                  {when.format(new Date(n.createdAt))}
                </time>
              </div>
              {!n.read ? (
                <button type="button" className="btn notify-item__read" onClick={() => read.mutate({ ids: [n.id] })} aria-label={t('readOne', { text })}>
                  {t('read')}
                </button>
              ) : null}
            </li>
          );
        })}
      </ul>
      {list.hasNextPage ? (
        <button type="button" className="btn" onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage}>
          {t('more')}
        </button>
      ) : null}
      <KindSettings />
    </section>
  );
}

/** The setting, beside the kinds, of whether unread notifications are also mailed as an hourly digest. */
const EMAIL_DIGEST = 'email.digest';

function KindSettings() {
  const { t } = useTranslation(NOTIFICATIONS_NS);
  const qc = useQueryClient();
  const settings = useQuery({ queryKey: notificationKeys.settings(), queryFn: ({ signal }) => fetchSettings(signal) });
  const save = useMutation({
    mutationFn: saveSettings,
    onSuccess: (next) => qc.setQueryData<NotificationSettings>(notificationKeys.settings(), next),
  });
  if (!settings.data) return null;
  return (
    <fieldset className="notify-settings">
      <legend>{t('settings')}</legend>
      {NOTIFICATION_KINDS.map((k) => (
        <label key={k} className="notify-settings__item">
          <input
            type="checkbox"
            checked={settings.data[k] !== false}
            disabled={save.isPending}
            onChange={(e) => save.mutate({ [k]: e.target.checked })}
          />
          {t(`kindNames.${k.replace('.', '_')}`)}
        </label>
      ))}
      {/* Offered only where mail is configured: the server sends the setting then. */}
      {EMAIL_DIGEST in settings.data ? (
        <label className="notify-settings__item notify-settings__item--digest">
          <input
            type="checkbox"
            checked={settings.data[EMAIL_DIGEST] !== false}
            disabled={save.isPending}
            onChange={(e) => save.mutate({ [EMAIL_DIGEST]: e.target.checked })}
          />
          {t('emailDigest')}
        </label>
      ) : null}
    </fieldset>
  );
}
