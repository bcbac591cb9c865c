import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { Page } from '../../../components/ui/Page';
import { errorMessage } from '../../../lib/api';
import { formatDecimal, type DecimalUnits } from '../format';
import { FILES_NS } from '../i18n';
import { sharePaths, statusOf, useShareInfo, useUnlockShare } from './api';
import { FilePreview } from './FilePreview';
import { SHARES_NS } from './i18n';
import './shares.css';
import { TextField } from '../../../components/ui/Field';

/**
 * /s/:token — a shared file for whoever holds the link: its name and size, a preview and a
 * download, after the password when the link has one. A link that expired, was used up or was
 * revoked shows the 410 page.
 */
export default function SharePage() {
  const { t, i18n } = useTranslation(SHARES_NS);
  const { t: tf } = useTranslation(FILES_NS);
  const { token = '' } = useParams();
  const info = useShareInfo(token);
  const unlock = useUnlockShare(token);
  const [password, setPassword] = useState('');

  const status = statusOf(info.error);
  if (status === 410 || status === 404) {
    const gone = status === 410;
    return (
      <Page title={gone ? t('page.goneTitle') : t('page.notFoundTitle')} className="share-page share-page--gone">
        <p data-status={status}>{gone ? t('page.goneText') : t('page.notFoundText')}</p>
        <p>
          <Link className="btn" to="/">
            {t('page.home')}
          </Link>
        </p>
      </Page>
    );
  }

  let body;
  if (info.isError) {
    body = <p role="alert">{t('page.loadFailed', { message: errorMessage(info.error) })}</p>;
  } else if (!info.data) {
    body = <p role="status">{t('page.loading')}</p>;
  } else if (info.data.locked || !info.data.file) {
    const unlockStatus = statusOf(unlock.error);
    const submit = (e: FormEvent) => {
      e.preventDefault();
      unlock.mutate(password);
    };
    body = (
      <form className="share-page__unlock" onSubmit={submit}>
        <p>{t('page.locked')}</p>
        <label>
          {t('page.password')}
          <TextField
            type="password"
            autoComplete="off"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            aria-invalid={unlock.isError}
          />
        </label>
        <button type="submit" className="btn btn--primary" disabled={unlock.isPending}>
          {t('page.unlock')}
        </button>
        {unlock.isError ? (
          <p role="alert" className="share-page__error">
            {unlockStatus === 401
              ? t('page.wrongPassword')
              : unlockStatus === 429
                ? t('page.throttled')
                : t('page.unlockFailed', { message: errorMessage(unlock.error) })}
          </p>
        ) : null}
      </form>
    );
  } else {
    const { file, expiresAt, downloadsLeft } = info.data;
    const units = tf('detail.units', { returnObjects: true }) as DecimalUnits;
    body = (
      <>
        <dl className="share-page__facts">
          <dt>{t('page.name')}</dt>
          <dd>{file.name}</dd>
          <dt>{t('page.size')}</dt>
          <dd>{formatDecimal(file.size, units, i18n.language)}</dd>
          <dt>{t('page.expires')}</dt>
          <dd>
            <time dateTime={expiresAt}>{new Date(expiresAt).toLocaleString(i18n.language)}</time>
          </dd>
          {downloadsLeft !== null ? (
            <>
              <dt>{t('page.downloadsLeft')}</dt>
              <dd>{downloadsLeft}</dd>
            </>
          ) : null}
        </dl>
        {file.inline ? <FilePreview src={sharePaths.inline(token)} mimetype={file.mimetype} name={file.name} /> : null}
        <p>
          <a className="btn btn--primary" href={sharePaths.download(token)} download={file.name}>
            {t('page.download')}
          </a>
        </p>
      </>
    );
  }
  return (
    <Page title={info.data?.file?.name ?? t('page.title')} className="share-page">
      {body}
    </Page>
  );
}
