import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { ApiError } from '../../../lib/api';
import { usePageTitle } from '../../../lib/usePageTitle';
import { useCreateOwner, useSetupLink, type OwnerInput } from '../api';
import { SETUP_NS } from '../i18n';
import '../setup.css';

const FIELDS = [
  { key: 'name', type: 'text', autoComplete: 'name' },
  { key: 'email', type: 'email', autoComplete: 'email' },
  { key: 'password', type: 'password', autoComplete: 'new-password' },
  { key: 'confirmPassword', type: 'password', autoComplete: 'new-password' },
] as const;

const EMPTY: OwnerInput = { name: '', email: '', password: '', confirmPassword: '' };

/** The server's first field error, else its message, else the fallback. */
function serverError(err: unknown, fallback: string): string {
  if (!(err instanceof ApiError) || err.status === 0) return fallback;
  for (const v of Object.values(err.data ?? {})) {
    if (v && typeof v === 'object' && typeof (v as { message?: unknown }).message === 'string') {
      return (v as { message: string }).message;
    }
  }
  return err.message || fallback;
}

/**
 * The first run: the link serve prints while the site has no administrator opens this page with
 * its token; the form creates the owner's account and signs it in. A used, expired or otherwise
 * dead link says so and how to get an administrator another way.
 */
export default function SetupPage() {
  const { t } = useTranslation(SETUP_NS);
  usePageTitle(t('title'));
  const id = useId();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const link = useSetupLink(token);
  const create = useCreateOwner(token);
  const [values, setValues] = useState<OwnerInput>(EMPTY);
  const [refused, setRefused] = useState<string | null>(null);

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (Object.values(values).some((v) => v.trim() === '')) return setRefused(t('required'));
    if (values.password !== values.confirmPassword) return setRefused(t('mismatch'));
    setRefused(null);
    create.mutate(values);
  }

  let body;
  if (create.isSuccess) {
    body = (
      <p className="setup__done" role="status">
        {t('done')} <Link to="/profile">{t('toProfile')}</Link>
      </p>
    );
  } else if (token === '' || link.isError || (create.error instanceof ApiError && create.error.status === 404)) {
    body = (
      <div className="setup__dead" role="alert">
        <p>{t('dead')}</p>
        <p className="setup__hint">{t('deadHint')}</p>
      </div>
    );
  } else if (link.isPending) {
    body = <p role="status">{t('checking')}</p>;
  } else {
    const error = refused ?? (create.isError ? serverError(create.error, t('failed')) : null);
    body = (
      <form className="setup__form" onSubmit={onSubmit} aria-label={t('title')} noValidate>
        {FIELDS.map((f) => (
          <div className="setup__field" key={f.key}>
            <label htmlFor={`${id}-${f.key}`}>{t(f.key)}</label>
            <input
              className="field-input"
              id={`${id}-${f.key}`}
              type={f.type}
              autoComplete={f.autoComplete}
              value={values[f.key]}
              onChange={(e) => setValues((v) => ({ ...v, [f.key]: e.target.value }))}
              required
            />
          </div>
        ))}
        {error ? (
          <p className="setup__error" role="alert">
            {error}
          </p>
        ) : null}
        <button type="submit" className="btn btn--primary" disabled={create.isPending}>
          {create.isPending ? t('busy') : t('submit')}
        </button>
      </form>
    );
  }

  return (
    <section className="setup" aria-labelledby={`${id}-title`}>
      <h1 id={`${id}-title`}>{t('title')}</h1>
      <p className="setup__lead">{t('lead')}</p>
      {body}
    </section>
  );
}
