import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { Page } from '../../../components/ui/Page';
import { ApiError } from '../../../lib/api';
import { ACCOUNT_PATH } from '../paths';
import { useConfirmEmail } from './api';
import { VERIFY_NS } from './i18n';
import { ResendVerification } from './ResendVerification';
import '../auth.css';

/** Whether a refusal of the link names field (token: unknown, used or expired; email: taken). */
function refusedField(err: unknown, field: string): boolean {
  return err instanceof ApiError && err.status === 400 && !!(err.data as Record<string, unknown> | undefined)?.[field];
}

/**
 * The page the verification and e-mail change mails link to (?token=…). Opening it spends the
 * link at once (it works once, for 24 hours): the address is confirmed, or the account moves to
 * the new one. A spent or expired link says so and offers a new verification link.
 */
export default function VerifyEmailPage() {
  const { t } = useTranslation(VERIFY_NS);
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const confirm = useConfirmEmail();
  // The link is spent by its first use: it is sent once, whatever re-renders the page.
  const sent = useRef(false);
  useEffect(() => {
    if (!token || sent.current) return;
    sent.current = true;
    confirm.mutate(token);
  }, [token, confirm]);

  let body;
  if (!token) {
    body = (
      <>
        <p>{t('noToken')}</p>
        <ResendVerification />
      </>
    );
  } else if (confirm.isSuccess) {
    const { purpose, email } = confirm.data;
    body = (
      <>
        <p className="auth-form__success" role="status">{purpose === 'email_change' ? t('changed', { email }) : t('verified', { email })}</p>
        <Link to={ACCOUNT_PATH}>{t('toProfile')}</Link>
      </>
    );
  } else if (confirm.isError) {
    if (refusedField(confirm.error, 'email')) {
      body = <p className="auth-form__error" role="alert">{t('taken')}</p>;
    } else if (refusedField(confirm.error, 'token')) {
      body = (
        <>
          <p className="auth-form__error" role="alert">{t('badLink')}</p>
          <ResendVerification />
        </>
      );
    } else {
      body = <p className="auth-form__error" role="alert">{t('failed')}</p>;
    }
  } else {
    body = <p role="status">{t('working')}</p>;
  }
  return (
    <Page title={t('title')}>
      <div className="auth-form">{body}</div>
    </Page>
  );
}
