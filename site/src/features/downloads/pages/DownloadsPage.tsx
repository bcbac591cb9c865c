import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { Select, TextField } from '../../../components/ui/Field';
import { Page } from '../../../components/ui/Page';
import { useAuth } from '../../../lib/auth';
import { pageCount, pageItems } from '../../../lib/pagination';
import { useDebouncedValue } from '../../../lib/useDebouncedValue';
import { PAGE_SIZE, SYSTEMS, sectionOf, useDownloadList, useReorderDownloads, type DownloadSummary, type Section, type SortKey } from '../api';
import { EntryForm } from '../components/EntryForm';
import { formatDate } from '../format';
import { DOWNLOADS_NS } from '../i18n';
import '../downloads.css';

function Item({ e, lang, admin, onMove, first, last }: {
  e: DownloadSummary;
  lang: string;
  admin: boolean;
  onMove: (dir: -1 | 1) => void;
  first: boolean;
  last: boolean;
}) {
  const { t } = useTranslation(DOWNLOADS_NS);
  const summary = e.summaries[lang] || e.summary;
  return (
    <li className="dl-item">
      {e.icon ? <img className="dl-item__icon" src={e.icon.url} alt="" width={48} height={48} /> : <span className="dl-item__icon dl-item__icon--none" aria-hidden="true" />}
      <div className="dl-item__body">
        <h2 className="dl-item__name">
          <Link to={`/${e.section}/${e.slug}`}>{e.name}</Link>
          {e.example ? <span className="dl-badge">{t('list.example')}</span> : null}
          {e.hidden ? <span className="dl-badge dl-badge--muted">{t('list.hidden')}</span> : null}
        </h2>
        {summary ? <p className="dl-item__summary">{summary}</p> : null}
        <p className="dl-item__meta">
          <span>{e.latest ? t('list.latest', { version: e.latest.version, date: formatDate(e.latest.date, lang) }) : t('list.noRelease')}</span>
          <span>{t('list.downloads', { count: e.downloads })}</span>
        </p>
        {e.systems.length > 0 ? (
          <ul className="dl-systems" aria-label={t('detail.systems')}>
            {e.systems.map((s) => <li key={s}>{t(`systems.${s}`)}</li>)}
          </ul>
        ) : null}
      </div>
      {admin ? (
        <div className="dl-item__order">
          <button type="button" className="btn btn--small" disabled={first} onClick={() => onMove(-1)} aria-label={t('list.moveUp', { name: e.name })}>↑</button>
          <button type="button" className="btn btn--small" disabled={last} onClick={() => onMove(1)} aria-label={t('list.moveDown', { name: e.name })}>↓</button>
        </div>
      ) : null}
    </li>
  );
}

/** /programs and /alavar: a section's entries with search, system filter, sort and pages. */
export function DownloadsPage({ section }: { section: Section }) {
  const { t, i18n } = useTranslation(DOWNLOADS_NS);
  const { isAdmin } = useAuth();
  const [search, setSearch] = useState('');
  const [system, setSystem] = useState('');
  const [sort, setSort] = useState<SortKey>('name');
  const [page, setPage] = useState(1);
  const [creating, setCreating] = useState(false);
  const debounced = useDebouncedValue(search.trim(), 250);
  const q = useDownloadList({ section, search: debounced, system, sort, page });
  const reorder = useReorderDownloads();
  const entries = q.data?.entries ?? [];
  const total = q.data?.totalCount ?? 0;
  const pages = pageCount(total, PAGE_SIZE);
  const filtered = debounced !== '' || system !== '';
  const move = (i: number, dir: -1 | 1) => {
    const slugs = entries.map((e) => e.slug);
    [slugs[i], slugs[i + dir]] = [slugs[i + dir], slugs[i]];
    reorder.mutate({ section, slugs });
  };

  return (
    <Page title={t(`section.${section}.title`)} lead={t(`section.${section}.lead`)} className="dl-page">
      <div className="dl-toolbar">
        <label className="dl-toolbar__search">
          {t('list.search')}
          <TextField type="search" value={search} placeholder={t('list.searchPlaceholder')} onChange={(e) => { setSearch(e.target.value); setPage(1); }} />
        </label>
        <label>
          {t('list.system')}
          <Select value={system} onChange={(e) => { setSystem(e.target.value); setPage(1); }}>
            <option value="">{t('list.anySystem')}</option>
            {SYSTEMS.map((s) => <option key={s} value={s}>{t(`systems.${s}`)}</option>)}
          </Select>
        </label>
        <label>
          {t('list.sort')}
          <Select value={sort} onChange={(e) => { setSort(e.target.value as SortKey); setPage(1); }}>
            <option value="name">{t('list.sortName')}</option>
            <option value="newest">{t('list.sortNewest')}</option>
            <option value="popular">{t('list.sortPopular')}</option>
          </Select>
        </label>
        {isAdmin ? (
          <button type="button" className="btn btn--primary" onClick={() => setCreating(true)}>
            {t('admin.new')}
          </button>
        ) : null}
      </div>
      {q.isError ? <p role="alert">{t('list.error')}</p> : null}
      {q.isPending ? <p>{t('list.loading')}</p> : null}
      {q.isSuccess && entries.length === 0 && filtered ? <p>{t('list.noMatch')}</p> : null}
      {q.isSuccess && total === 0 && !filtered ? (
        <section className="dl-empty" aria-labelledby="dl-empty-title">
          <h2 id="dl-empty-title">{t('empty.title')}</h2>
          <p>{t('empty.owner')}</p>
          <p><code>{t('empty.command', { section })}</code></p>
        </section>
      ) : null}
      {entries.length > 0 ? (
        <ul className="dl-list">
          {entries.map((e, i) => (
            <Item key={e.slug} e={e} lang={i18n.language} admin={isAdmin && sort === 'name' && !filtered}
              onMove={(dir) => move(i, dir)} first={i === 0} last={i === entries.length - 1} />
          ))}
        </ul>
      ) : null}
      {pages > 1 ? (
        <nav className="dl-pager" aria-label={t('list.pages')}>
          {pageItems(page, pages).map((p, i) =>
            p === 'ellipsis' ? <span key={`e${i}`}>…</span> : (
              <button key={p} type="button" className="btn btn--small" aria-current={p === page ? 'page' : undefined}
                aria-label={t('list.page', { page: p })} onClick={() => setPage(p)}>{p}</button>
            ),
          )}
        </nav>
      ) : null}
      {/* Below the list, it comes with the list: shown under the loading line it would be pushed
          down by the arriving entries (a layout shift). */}
      {q.isPending ? null : <p className="dl-feed"><a href={`/${section}/feed.xml`}>{t('list.feed')}</a></p>}
      {creating ? <EntryForm section={section} onClose={() => setCreating(false)} onSaved={() => setCreating(false)} /> : null}
    </Page>
  );
}

/** The route's page: the section is the path's first segment. */
export default function SectionPage() {
  const section = sectionOf(useLocation().pathname);
  return <DownloadsPage key={section} section={section} />;
}
