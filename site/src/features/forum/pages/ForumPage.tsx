import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { TextField } from '../../../components/ui/Field';
import { Page } from '../../../components/ui/Page';
import { errorMessage } from '../../../lib/api';
import { useAuth } from '../../../lib/auth';
import { useDebouncedValue } from '../../../lib/useDebouncedValue';
import { addCategory, deleteCategory, useCategories, useForumMutation, useSearch } from '../api';
import { ThreadRow } from '../components/ThreadRow';
import { FORUM_NS } from '../i18n';
import '../forum.css';

/** /forum: the categories in order (their name in the reader's language), a search over every
 *  thread, and for admins a form that adds a category and a link to the moderation queue. */
export default function ForumPage() {
  const { t, i18n } = useTranslation(FORUM_NS);
  const { isAdmin } = useAuth();
  const categories = useCategories();
  const [search, setSearch] = useState('');
  const q = useDebouncedValue(search.trim(), 400);
  const results = useSearch(q, 1);
  const remove = useForumMutation(deleteCategory);
  const lang = i18n.language.slice(0, 2);

  return (
    <Page title={t('title')} lead={t('lead')} className="forum">
      <div className="forum-toolbar">
        <label className="forum-search">
          <span className="visually-hidden">{t('searchLabel')}</span>
          <TextField type="search" value={search} onChange={(e) => setSearch(e.target.value)} placeholder={t('searchPlaceholder')} aria-label={t('searchLabel')} />
        </label>
        <a href="/forum/feed.xml" className="forum-feed" type="application/atom+xml">
          {t('feed')}
        </a>
        {isAdmin ? (
          <Link to="/forum/moderation" className="btn">
            {t('moderation')}
          </Link>
        ) : null}
      </div>
      {q ? (
        <section aria-label={t('searchResults')}>
          <h2>{t('searchResults')}</h2>
          {results.data && results.data.threads.length === 0 ? <p>{t('noResults')}</p> : null}
          <ul className="forum-threads">
            {results.data?.threads.map((th) => <ThreadRow key={th.id} thread={th} />)}
          </ul>
        </section>
      ) : null}
      <h2>{t('categories')}</h2>
      {categories.isError ? <p role="alert">{t('loadError')}</p> : null}
      {categories.data && categories.data.length === 0 ? <p>{t('noCategories')}</p> : null}
      <ul className="forum-categories">
        {categories.data?.map((c) => (
          <li key={c.id} className="forum-category">
            <Link to={`/forum/c/${c.id}`} className="forum-category__name">
              {c.names[lang] || c.name}
            </Link>
            <span className="forum-category__count">{t('threadsCount', { count: c.threads })}</span>
            {c.descriptions[lang] || c.description ? <p className="forum-category__text">{c.descriptions[lang] || c.description}</p> : null}
            {isAdmin ? (
              <button type="button" className="btn btn--danger" onClick={() => window.confirm(t('confirmDelete')) && remove.mutate(c.id)}>
                {t('deleteCategory', { name: c.name })}
              </button>
            ) : null}
          </li>
        ))}
      </ul>
      {isAdmin ? <AddCategory /> : null}
    </Page>
  );
}

function AddCategory() {
  const { t, i18n } = useTranslation(FORUM_NS);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const add = useForumMutation(addCategory);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) return;
    const lang = i18n.language.slice(0, 2);
    add.mutate({ name, description, names: { [lang]: name } }, { onSuccess: () => (setName(''), setDescription('')) });
  };
  return (
    <form className="forum-form" onSubmit={submit} aria-label={t('addCategory')}>
      <h2>{t('addCategory')}</h2>
      <label className="forum-form__field">
        <span>{t('categoryName')}</span>
        <TextField value={name} onChange={(e) => setName(e.target.value)} required maxLength={80} />
      </label>
      <label className="forum-form__field">
        <span>{t('categoryDescription')}</span>
        <TextField value={description} onChange={(e) => setDescription(e.target.value)} maxLength={500} />
      </label>
      {add.isError ? <p role="alert">{t('error', { message: errorMessage(add.error) })}</p> : null}
      <button type="submit" className="btn btn--primary" disabled={add.isPending}>
        {t('add')}
      </button>
    </form>
  );
}
