import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { Select } from '../../../components/ui/Field';
import { Page } from '../../../components/ui/Page';
import { ApiError } from '../../../lib/api';
import { useAuth } from '../../../lib/auth';
import { PAGE_SIZE, startThread, useForumMutation, useThreads, type Sort } from '../api';
import { Pager } from '../components/Pager';
import { PostForm } from '../components/PostForm';
import { ThreadRow } from '../components/ThreadRow';
import { FORUM_NS } from '../i18n';
import '../forum.css';

/** /forum/c/:id: a category's threads (pinned first, newest or recently active), paged, and the
 *  form that starts a thread for signed-in readers. */
export default function CategoryPage() {
  const { t, i18n } = useTranslation(FORUM_NS);
  const { id = '' } = useParams();
  const { user } = useAuth();
  const navigate = useNavigate();
  const [sort, setSort] = useState<Sort>('newest');
  const [page, setPage] = useState(1);
  const threads = useThreads(id, sort, page);
  const start = useForumMutation((v: { title: string; content: string }) => startThread(id, v));
  const lang = i18n.language.slice(0, 2);
  const cat = threads.data?.category;
  const title = cat ? cat.names[lang] || cat.name : t('title');

  if (threads.error instanceof ApiError && threads.error.status === 404) {
    return (
      <Page title={t('notFound')} className="forum">
        <Link to="/forum">← {t('back')}</Link>
      </Page>
    );
  }
  return (
    <Page title={title} lead={cat ? cat.descriptions[lang] || cat.description : undefined} className="forum">
      <Link to="/forum" className="forum-back">
        ← {t('back')}
      </Link>
      <label className="forum-sort">
        <span>{t('sortLabel')}</span>
        <Select value={sort} onChange={(e) => (setSort(e.target.value as Sort), setPage(1))}>
          <option value="newest">{t('sortNewest')}</option>
          <option value="active">{t('sortActive')}</option>
        </Select>
      </label>
      {threads.isError ? <p role="alert">{t('loadError')}</p> : null}
      {threads.data && threads.data.threads.length === 0 ? <p>{t('noThreads')}</p> : null}
      <ul className="forum-threads">
        {threads.data?.threads.map((th) => <ThreadRow key={th.id} thread={th} />)}
      </ul>
      <Pager page={page} total={threads.data?.total ?? 0} pageSize={PAGE_SIZE} onPage={setPage} />
      <h2>{t('newThread')}</h2>
      {user ? (
        <PostForm
          withTitle
          label={t('content')}
          submitLabel={t('post')}
          onSubmit={async (v) => {
            const view = await start.mutateAsync(v);
            navigate(`/forum/t/${view.thread.id}`);
          }}
        />
      ) : (
        <p className="forum-signin">
          <Link to="/profile">{t('signInToPost')}</Link>
        </p>
      )}
    </Page>
  );
}
