import { useTranslation } from 'react-i18next';
import { Link, useLocation, useParams } from 'react-router';
import { Page } from '../../../components/ui/Page';
import { ApiError, errorMessage } from '../../../lib/api';
import { useAuth } from '../../../lib/auth';
import { useToast } from '../../../lib/toast';
import { sectionOf, useDeleteRelease, useDownload, type Section } from '../api';
import { AdminTools } from '../components/AdminTools';
import { DownloadButton } from '../components/DownloadButton';
import { Gallery } from '../components/Gallery';
import { ReleaseList } from '../components/ReleaseList';
import { DOWNLOADS_NS } from '../i18n';
import '../downloads.css';

/** /programs/:slug and /alavar/:slug: one entry with its releases. */
export function DownloadPage({ section }: { section: Section }) {
  const { slug = '' } = useParams();
  const { t, i18n } = useTranslation(DOWNLOADS_NS);
  const { isAdmin } = useAuth();
  const toast = useToast();
  const q = useDownload(slug);
  const delRelease = useDeleteRelease(slug);
  const e = q.data && q.data.section === section ? q.data : undefined;
  const notFound = (q.isError && q.error instanceof ApiError && q.error.status === 404) || (q.data && !e);
  if (!e) {
    return (
      <Page title={t(`section.${section}.title`)} className="dl-page">
        {q.isPending ? <p>{t('list.loading')}</p> : <p role="alert">{notFound ? t('detail.notFound') : t('detail.error')}</p>}
        <p><Link to={`/${section}`}>{t('detail.back')}</Link></p>
      </Page>
    );
  }
  const lang = i18n.language;
  const summary = e.translations[lang]?.summary || e.summary;
  const html = e.descriptionHtml?.[lang] ?? e.descriptionHtml?.[''];
  const latest = e.releases[0];
  return (
    <Page title={e.name} lead={summary} className="dl-page dl-detail">
      <p><Link to={`/${section}`}>{t('detail.back')}</Link></p>
      {e.example ? <p className="dl-note">{t('detail.example')}</p> : null}
      <div className="dl-detail__top">
        {e.icon ? <img className="dl-detail__icon" src={e.icon.url} alt="" width={64} height={64} /> : null}
        <div>
          {latest ? <DownloadButton release={latest} /> : null}
          <p className="dl-detail__count">{t('detail.totalDownloads', { count: e.downloads })}</p>
        </div>
      </div>
      {html ? (
        <section aria-labelledby="dl-desc">
          <h2 id="dl-desc">{t('detail.description')}</h2>
          <div className="prose" dangerouslySetInnerHTML={{ __html: html }} />
        </section>
      ) : null}
      {e.screenshots.length > 0 ? (
        <section aria-labelledby="dl-shots">
          <h2 id="dl-shots">{t('detail.screenshots')}</h2>
          <Gallery images={e.screenshots} name={e.name} />
        </section>
      ) : null}
      <dl className="dl-facts">
        {e.systems.length > 0 ? (<><dt>{t('detail.systems')}</dt><dd>{e.systems.map((s) => t(`systems.${s}`)).join(', ')}</dd></>) : null}
        {e.requirements ? (<><dt>{t('detail.requirements')}</dt><dd className="dl-facts__pre">{e.requirements}</dd></>) : null}
        {e.licence ? (<><dt>{t('detail.licence')}</dt><dd>{e.licence}</dd></>) : null}
        {e.homepage ? (<><dt>{t('detail.homepage')}</dt><dd><a href={e.homepage} rel="noopener noreferrer nofollow">{e.homepage}</a></dd></>) : null}
      </dl>
      <ReleaseList
        releases={e.releases}
        onDelete={isAdmin ? (v) => delRelease.mutate(v, {
          onSuccess: () => toast.success(t('admin.releaseDeleted')),
          onError: (err) => toast.error(t('admin.failed', { message: errorMessage(err) })),
        }) : undefined}
      />
      {isAdmin ? <AdminTools entry={e} /> : null}
    </Page>
  );
}

/** The route's page: the section is the path's first segment. */
export default function EntryPage() {
  const section = sectionOf(useLocation().pathname);
  return <DownloadPage key={section} section={section} />;
}
